// Every failure leaves as the spec's error body: unknown routes, malformed JSON, wrong content
// type, oversized bodies, validation, domain errors and unexpected errors (500, no stack trace).
import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import { DomainError } from '../../domain/errors.js'
import { UnstorableEventError, WrongExpectedVersionError } from '../../events/store/port.js'
import { StreamQueueFullError } from '../../commands/runtime/streamQueue.js'
import { toApiError } from '../../http/domainErrors.js'
import { ApiError, type ErrorStatus, ERROR_NAMES, errorBody } from '../../http/errorBody.js'
import { HEADER_ERRORS } from '../../http/headers.js'
import { isDatabaseUnavailable } from '../../events/databaseUnavailable.js'

/** Characters of an unknown path quoted in the 404 message; the rest is cut. */
const MAX_ECHOED_PATH_LENGTH = 200

/** What a 503 for an unreachable database asks a client to wait: the embedded cluster is checked every 0.5 s and starts in about 1 s. */
const DATABASE_RETRY_AFTER_SECONDS = 2

/** fastify's validation contexts, as the error body names them (`query.tag`, like the guard). */
const CONTEXT_NAMES: Record<string, string> = { querystring: 'query' }

function echoedPath(url: string): string {
  const path = url.split('?')[0] ?? ''
  return path.length > MAX_ECHOED_PATH_LENGTH ? `${path.slice(0, MAX_ECHOED_PATH_LENGTH)}...` : path
}

function fromFastifyError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'Unsupported Content-Type: send Content-Type: application/json', 'unsupported_media_type')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'Request body is too large', 'body_too_large')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'Malformed JSON body', 'invalid_json')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'Content-Length does not match the body', 'invalid_content_length')
  }
  if (error instanceof SyntaxError) return new ApiError(400, 'Malformed JSON body', 'invalid_json')
  const status = error.statusCode
  if (status && status >= 400 && status < 500 && status in ERROR_NAMES) return new ApiError(status as ErrorStatus, error.message)
  return undefined
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(404, `Route ${request.method} ${echoedPath(request.url)} not found`, 'route_not_found')
    return reply.code(404).send(errorBody(error, request.id))
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let apiError: ApiError | undefined
    if (error instanceof ApiError) apiError = error
    else if (error instanceof DomainError) apiError = toApiError(error)
    else if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext ?? 'body'
      const headerError =
        context === 'headers' ? error.validation.map((v) => HEADER_ERRORS[v.instancePath.slice(1)]).find((e) => e !== undefined) : undefined
      const where = CONTEXT_NAMES[context] ?? context
      apiError =
        headerError?.() ??
        new ApiError(
          400,
          `Invalid request ${where}`,
          'invalid_request',
          error.validation.map((v) => {
            const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.')
            return { field: path ? `${where}.${path}` : where, message: v.message ?? 'invalid' }
          }),
        )
    } else if (error instanceof WrongExpectedVersionError) {
      apiError = new ApiError(409, 'The resource was changed concurrently; retry the request', 'concurrent_modification')
    } else if (error instanceof StreamQueueFullError) {
      apiError = new ApiError(503, 'Too many requests are changing this resource at once; retry shortly', 'resource_busy')
    } else if (error instanceof UnstorableEventError) {
      // The request boundary refuses such values first; this is the store's defence in depth.
      apiError = new ApiError(400, 'The request contains a value that cannot be stored', 'unstorable_value', [
        { field: error.path, message: error.reason },
      ])
    } else if (!isResponseSerializationError(error)) apiError = fromFastifyError(error)

    // The database is restarting, stopped by its owner, or out of reach: a retry may succeed, so not a 500.
    if (!apiError && isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      apiError = new ApiError(503, 'The database is unavailable; retry shortly', 'database_unavailable')
    }
    if (!apiError) {
      request.log.error({ err: error }, 'unexpected error')
      apiError = new ApiError(500, 'Internal server error', 'internal_error')
    }
    return reply.code(apiError.statusCode).send(errorBody(apiError, request.id))
  })
}
