// The spec's one error body `{ error, code, message, statusCode, details?, requestId }`: its schema,
// the error names per status, the error responses every route documents, and ApiError, the
// failure every HTTP layer throws or sends in that body.
import { z } from 'zod'
import type { ErrorDetail, ErrorExtra } from '../domain/errors.js'
import { escapeUnsafe } from './echoSafe.js'

export const errorBodySchema = z.object({
  error: z.string().describe('Error type name, for example ValidationError'),
  code: z.string().optional().describe('Machine-readable code, snake_case (for example idempotency_key_reused)'),
  message: z.string(),
  statusCode: z.number().int(),
  details: z.array(z.object({ field: z.string(), message: z.string(), value: z.unknown().optional() })).optional(),
  requestId: z.string(),
  hint: z.string().optional().describe('FX not-executable errors (422), FX rate errors and agent limit errors: what to try instead'),
  limits: z
    .object({
      sourceCurrency: z.string(),
      min: z.string().describe('Corridor minimum, minor units of sourceCurrency'),
      max: z.string().describe('Corridor maximum, minor units of sourceCurrency'),
    })
    .optional()
    .describe('Quote creation only, when the corridor limits are known'),
  requested: z
    .object({ currency: z.string(), amount: z.string().describe('Minor units'), side: z.enum(['SOURCE', 'DESTINATION']) })
    .optional()
    .describe('Quote creation only: the amount the quote was asked for'),
  denial: z
    .object({
      code: z.string().describe('Which limit: per_transaction_limit_exceeded, per_day_limit_exceeded, per_month_limit_exceeded'),
      message: z.string(),
      window: z.enum(['PER_TRANSACTION', 'PER_DAY', 'PER_MONTH']),
      limit: z.string().describe('Decimal, in currency'),
      used: z.string().optional().describe('Decimal; absent for a per-transaction denial'),
      remaining: z.string().optional().describe('Decimal; absent for a per-transaction denial'),
      attemptedAmount: z.string().describe('Decimal, converted to currency at the rate recorded with the denial'),
      currency: z.string().describe("The agent's limits currency"),
      resetsAt: z.string().optional().describe('When the window starts again; absent for a per-transaction denial'),
    })
    .optional()
    .describe('Agent limit errors (403 agent_limit_exceeded, agent_approval_required): which limit, and where the agent stands'),
})

export type ErrorBody = z.infer<typeof errorBodySchema>

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

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request format or parameters',
  401: 'Missing or invalid API key',
  403: 'Insufficient permission',
  404: "Resource not found (also for other organizations' resources)",
  409: 'Conflict: idempotency_key_reused, idempotency_request_in_progress, or a state conflict',
  410: 'Gone',
  413: 'Body too large',
  415: 'Content-Type is not application/json',
  422: 'Validation failed',
  429: 'Too many requests: rate_limited, with Retry-After and RateLimit-* headers',
  431: 'Request headers over 16 KB in all (headers_too_large)',
  500: 'Internal server error',
}

/** One documented error response: the error body, described for its status. */
export const errorResponse = (status: number): z.ZodType => errorBodySchema.describe(ERROR_DESCRIPTIONS[status] ?? 'Error')

/** The error responses a route documents: 400, 401, 429 and 500 always, plus the ones named. */
export function errorResponses(...statuses: number[]): Record<number, z.ZodType> {
  const all = [...new Set([400, 401, 429, 500, ...statuses])].sort()
  return Object.fromEntries(all.map((s) => [s, errorResponse(s)]))
}

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly statusCode: ErrorStatus,
    message: string,
    readonly code?: string,
    readonly details?: ErrorDetail[],
    readonly extra?: ErrorExtra,
  ) {
    super(message)
  }
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
    ...(error.extra?.hint === undefined ? {} : { hint: escapeUnsafe(error.extra.hint) }),
    ...(error.extra?.limits ? { limits: error.extra.limits } : {}),
    ...(error.extra?.requested ? { requested: error.extra.requested } : {}),
    ...(error.extra?.denial ? { denial: error.extra.denial } : {}),
  }
}
