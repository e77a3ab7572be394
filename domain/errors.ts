// Domain errors are typed values with no HTTP words; http/domainErrors.ts maps them to statuses.
export type ErrorDetail = { field: string; message: string; value?: unknown }

export type DomainErrorKind = 'bad_request' | 'not_found' | 'conflict' | 'validation' | 'forbidden' | 'gone'

/**
 * Fields some errors add to the body beside `details`: the spec's FX not-executable body (`hint`,
 * `limits` in minor units, `requested`). Absent on every other error.
 */
export type ErrorExtra = {
  hint?: string
  limits?: { sourceCurrency: string; min: string; max: string }
  requested?: { currency: string; amount: string; side: 'SOURCE' | 'DESTINATION' }
  /** The spec's agent denial body (agent_limit_exceeded, agent_approval_required). */
  denial?: AgentDenial
}

/** Amounts as decimals of `currency`; a per-transaction denial omits used and remaining (spec: Errors). */
export type AgentDenial = {
  code: string
  message: string
  window: 'PER_TRANSACTION' | 'PER_DAY' | 'PER_MONTH'
  limit: string
  used?: string
  remaining?: string
  attemptedAmount: string
  currency: string
  resetsAt?: string
}

export class DomainError extends Error {
  override readonly name = 'DomainError'
  constructor(
    readonly kind: DomainErrorKind,
    /** Machine-readable code, snake_case, stable for callers. */
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly extra?: ErrorExtra,
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
