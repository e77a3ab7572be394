// The spec's error body and the one place domain errors become HTTP errors.
import type { z } from 'zod'
import { DomainError, type ErrorDetail, errorBodySchema } from '../../domain/errors.js'

export const ERROR_NAMES = {
  400: 'BadRequestError',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFoundError',
  409: 'ConflictError',
  410: 'GoneError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
  422: 'ValidationError',
  429: 'RateLimitError',
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

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: ERROR_NAMES[error.statusCode],
    ...(error.code ? { code: error.code } : {}),
    message: error.message,
    statusCode: error.statusCode,
    ...(error.details ? { details: error.details } : {}),
    requestId,
  }
}

export { DomainError, errorBodySchema }
