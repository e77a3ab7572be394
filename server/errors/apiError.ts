// The spec's error body and the one place domain errors become HTTP errors.
import type { z } from 'zod'
import { DomainError, type ErrorDetail, errorBodySchema } from '../../domain/errors.js'
import { escapeUnsafe } from './echoSafe.js'

export const ERROR_NAMES = {
  400: 'BadRequestError',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFoundError',
  408: 'RequestTimeoutError',
  409: 'ConflictError',
  410: 'GoneError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  415: 'UnsupportedMediaTypeError',
  422: 'ValidationError',
  429: 'RateLimitError',
  431: 'RequestHeaderFieldsTooLargeError',
  500: 'InternalServerError',
  502: 'BadGatewayError',
  503: 'ServiceUnavailableError',
  504: 'GatewayTimeoutError',
} as const

export type ErrorStatus = keyof typeof ERROR_NAMES

export type ErrorBody = z.infer<typeof errorBodySchema>

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly statusCode: ErrorStatus,
    message: string,
    readonly code?: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message)
  }
}

const KIND_STATUS: Record<DomainError['kind'], ErrorStatus> = {
  not_found: 404,
  conflict: 409,
  validation: 422,
  forbidden: 403,
  gone: 410,
}

export function toApiError(error: DomainError): ApiError {
  return new ApiError(KIND_STATUS[error.kind], error.message, error.code, error.details.length ? error.details : undefined)
}

function safeDetail(detail: ErrorDetail): ErrorDetail {
  return {
    field: escapeUnsafe(detail.field),
    message: escapeUnsafe(detail.message),
    ...(detail.value === undefined ? {} : { value: typeof detail.value === 'string' ? escapeUnsafe(detail.value) : detail.value }),
  }
}

/** The one error body; text that may quote the request is escaped (echoSafe.ts). */
export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: ERROR_NAMES[error.statusCode],
    ...(error.code ? { code: error.code } : {}),
    message: escapeUnsafe(error.message),
    statusCode: error.statusCode,
    ...(error.details ? { details: error.details.map(safeDetail) } : {}),
    requestId,
  }
}

export { DomainError, errorBodySchema }
