// Errors fastify raises before any route or hook runs (fastify's `frameworkErrors` option): a path
// with bad percent-encoding, a path segment over the router's limit. They leave in the one error
// body with a request id, like every other response; the path itself is not echoed.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, errorBody } from '../../http/errorBody.js'

/** The router's limit on one path segment (fastify's maxParamLength), named for the 414 message. */
export const MAX_PATH_SEGMENT_LENGTH = 100

function toApiError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ApiError(400, 'The request path is not a valid URL: bad percent-encoding', 'invalid_url')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(414, `A path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`, 'uri_too_long')
    default:
      return new ApiError(500, 'Internal server error', 'internal_error')
  }
}

export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error)
  if (apiError.statusCode === 500) request.log.error({ err: error }, 'unexpected framework error')
  reply.header('x-request-id', request.id).code(apiError.statusCode).send(errorBody(apiError, request.id))
}
