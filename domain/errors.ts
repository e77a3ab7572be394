import { z } from 'zod'

// Domain errors are typed values; server/errors maps them to the spec's error body in one place.
export type ErrorDetail = { field: string; message: string; value?: unknown }

export type DomainErrorKind = 'not_found' | 'conflict' | 'validation' | 'forbidden' | 'gone'

export class DomainError extends Error {
  override readonly name = 'DomainError'
  constructor(
    readonly kind: DomainErrorKind,
    /** Machine-readable code, snake_case, stable for callers. */
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message)
  }
}

export const notFound = (what: string, id: string) => new DomainError('not_found', 'resource_not_found', `${what} ${id} not found`)
export const conflict = (code: string, message: string) => new DomainError('conflict', code, message)
export const invalid = (code: string, message: string, details: ErrorDetail[] = []) => new DomainError('validation', code, message, details)

/** A broken invariant: stop loudly rather than write bad state. */
export function assertInvariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Invariant violated: ${message}`)
}

// ---- The spec's error body, as every route documents it -------------------------------------

export const errorBodySchema = z.object({
  error: z.string().describe('Error type name, for example ValidationError'),
  code: z.string().optional().describe('Machine-readable code, snake_case (for example idempotency_key_reused)'),
  message: z.string(),
  statusCode: z.number().int(),
  details: z.array(z.object({ field: z.string(), message: z.string(), value: z.unknown().optional() })).optional(),
  requestId: z.string(),
})

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request format or parameters',
  401: 'Missing or invalid API key',
  403: 'Insufficient permission',
  404: 'Resource not found (also for other organizations\' resources)',
  409: 'Conflict: idempotency_key_reused, idempotency_request_in_progress, or a state conflict',
  410: 'Gone',
  413: 'Body too large',
  415: 'Content-Type is not application/json',
  422: 'Validation failed',
  429: 'Too many requests: rate_limited, with Retry-After and RateLimit-* headers',
  500: 'Internal server error',
}

/** The error responses a route documents: 400, 401, 429 and 500 always, plus the ones named. */
export function errorResponses(...statuses: number[]): Record<number, z.ZodType> {
  const all = [...new Set([400, 401, 429, 500, ...statuses])].sort()
  return Object.fromEntries(all.map((s) => [s, errorBodySchema.describe(ERROR_DESCRIPTIONS[s] ?? 'Error')]))
}
