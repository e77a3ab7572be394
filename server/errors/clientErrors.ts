// Errors Node's HTTP parser raises before fastify sees a request (fastify's `clientErrorHandler`):
// headers over 16 KB (431), a request that took too long (408), bytes that are not HTTP (400).
// There is no request object, so the response is written to the socket by hand, still in the one
// error body with a fresh request id in the body and in X-Request-Id.
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../domain/shared/ids.js'
import { ApiError, errorBody } from '../../http/errorBody.js'

type ClientError = Error & { code?: string }

function toApiError(error: ClientError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'Request headers are too large: at most 16 KB in all', 'headers_too_large')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'The request was not received in time', 'request_timeout')
    default:
      return new ApiError(400, 'Malformed HTTP request', 'invalid_http_request')
  }
}

export function onClientError(this: FastifyInstance, error: ClientError, socket: Socket): void {
  // A reset or closed connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const apiError = toApiError(error)
  const requestId = newId('req')
  this.log.debug({ err: error, requestId }, 'client error')
  if (socket.writable) {
    const body = JSON.stringify(errorBody(apiError, requestId))
    socket.write(
      [
        `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    )
  }
  socket.destroy(error)
}
