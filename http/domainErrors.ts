// The one place a domain error becomes an HTTP error: its kind decides the status.
import type { DomainError } from '../domain/errors.js'
import { ApiError, type ErrorStatus } from './errorBody.js'

const KIND_STATUS: Record<DomainError['kind'], ErrorStatus> = {
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  validation: 422,
  forbidden: 403,
  gone: 410,
}

export function toApiError(error: DomainError): ApiError {
  return new ApiError(KIND_STATUS[error.kind], error.message, error.code, error.details.length ? error.details : undefined, error.extra)
}
