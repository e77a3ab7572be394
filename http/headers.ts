// The request headers routes declare: Idempotency-Key on writes, X-On-Behalf-Of on customer-scoped
// routes. One schema per header, so the OpenAPI document and the checks say the same thing.
import { z } from 'zod'
import { ApiError } from './errorBody.js'

export const IDEMPOTENCY_KEY_LIMITS = { maxLength: 255 } as const

/** 1 to 255 printable ASCII characters, no spaces. */
export const idempotencyKey = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_LIMITS.maxLength)
  .regex(/^[\x21-\x7e]+$/)
  .describe('Makes retries safe for 24 hours; a replay returns the original response with Idempotent-Replayed: true')

/** The one answer to a malformed Idempotency-Key, whether the route's schema or the idempotency hook finds it. */
export function invalidIdempotencyKey(): ApiError {
  return new ApiError(
    400,
    `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_LIMITS.maxLength} printable characters`,
    'invalid_idempotency_key',
    [{ field: 'Idempotency-Key', message: 'invalid header value' }],
  )
}

/** Headers whose schema failure answers with that header's own error instead of the generic invalid_request. */
export const HEADER_ERRORS: Readonly<Record<string, () => ApiError>> = { 'idempotency-key': invalidIdempotencyKey }

const onBehalfOf = z
  .string()
  .max(64)
  .describe('Acting for one customer (platform session): only that customer is visible; another customer id answers 404')

/** Writes of organization-level resources (webhooks). */
export const idempotencyHeaders = z.object({ 'idempotency-key': idempotencyKey.optional() })
/** Writes of customer-scoped resources. */
export const writeHeaders = idempotencyHeaders.extend({ 'x-on-behalf-of': onBehalfOf.optional() })
/** Reads of customer-scoped resources. */
export const readHeaders = z.object({ 'x-on-behalf-of': onBehalfOf.optional() })
