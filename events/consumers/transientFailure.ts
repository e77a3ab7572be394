// Which failures say "the database or the event store cannot be reached, or is contended right now"
// rather than "this event cannot be handled". A consumer backs off and retries the first kind for as
// long as it lasts and never parks on it: parking during an outage would park every stream it saw.
// Unreachable is the one rule the HTTP side answers 503 by (events/databaseUnavailable.ts); contention
// is this file's own.
import { isDatabaseUnavailable } from '../databaseUnavailable.js'

export const TRANSIENT_FAILURE_LIMITS = {
  /** Causes followed down an error's chain (`cause`, an AggregateError's `errors`). */
  maxDepth: 5,
} as const

/**
 * PostgreSQL SQLSTATEs of contention: 53 insufficient resources (disk, memory), 40001 serialization
 * failure, 40P01 deadlock, 55P03 lock not available, 57014 a statement cancelled (statement_timeout:
 * another writer held a lock that long), 25P03 a session ended for idling in a transaction.
 */
const TRANSIENT_SQLSTATE = /^53...$|^(40001|40P01|55P03|57014|25P03)$/

/** DNS on the way to a remote database or event store. */
const TRANSIENT_SYSTEM_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'ECONNABORTED'])

/** The event store's conflict after the command runtime's own retries; EventStoreDB's unreachable cluster. */
const TRANSIENT_ERROR_NAMES: ReadonlySet<string> = new Set(['WrongExpectedVersionError'])
/** A domain error that says "changed concurrently, try again" (the same conflict, seen by a command). */
const TRANSIENT_DOMAIN_CODES: ReadonlySet<string> = new Set(['concurrent_modification'])
const TRANSIENT_ESDB_TYPES: ReadonlySet<string> = new Set(['unavailable', 'deadline-exceeded', 'not-leader'])

function isTransientItself(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (TRANSIENT_ERROR_NAMES.has(error.name)) return true
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined
  if (code !== undefined && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SYSTEM_CODES.has(code) || TRANSIENT_DOMAIN_CODES.has(code)))
    return true
  const type = 'type' in error && typeof error.type === 'string' ? error.type : undefined
  return type !== undefined && TRANSIENT_ESDB_TYPES.has(type)
}

/** True when the error, or anything it was caused by, says a dependency is unreachable or contended. */
export function isTransientFailure(error: unknown, depth = 0): boolean {
  if (depth === 0 && isDatabaseUnavailable(error)) return true
  if (depth > TRANSIENT_FAILURE_LIMITS.maxDepth) return false
  if (isTransientItself(error)) return true
  if (!(error instanceof Error)) return false
  if (error instanceof AggregateError && error.errors.some((inner) => isTransientFailure(inner, depth + 1))) return true
  return error.cause !== undefined && isTransientFailure(error.cause, depth + 1)
}
