// Whether an error means the database could not be reached or went away (a restart, its owner
// stopping it, a network cut), so a retry may succeed: a request answers 503, not a 500 for a fault
// of the service (server/errors/errorHandler.ts), and a consumer backs off without parking anything
// (events/consumers/transientFailure.ts). One list for both. PostgreSQL's SQLSTATE says so for a server that is
// stopping or starting; the driver says so in words for a connection it lost or never made.
const UNAVAILABLE_SQLSTATES: ReadonlySet<string> = new Set([
  '57P01', // admin_shutdown: the server is stopping (fast or immediate)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
])

/** Socket errors of a connection to the database (ENOENT: its Unix socket is gone with it). */
const UNAVAILABLE_SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'EAI_AGAIN',
])

/** What pg and pg-pool say, without a code, for a connection lost, refused in time, or closed under a query. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
]

/** Causes followed at most (an error wrapped by the store, the codec and the command runtime), and an AggregateError's errors read. */
const MAX_CAUSE_DEPTH = 8
const MAX_AGGREGATED = 16

function isUnavailableItself(error: object): boolean {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined
  if (code !== undefined && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true
  const syscall = 'syscall' in error && typeof error.syscall === 'string' ? error.syscall : undefined
  if (code !== undefined && UNAVAILABLE_SOCKET_CODES.has(code) && (code !== 'ENOENT' || syscall === 'connect')) return true
  const message = error instanceof Error ? error.message : undefined
  return message !== undefined && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))
}

/** True when `error`, a cause of it, or one of an AggregateError's errors says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: { error: unknown; depth: number }[] = [{ error, depth: 0 }]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.error !== 'object' || item.error === null || item.depth > MAX_CAUSE_DEPTH) continue
    if (isUnavailableItself(item.error)) return true
    if ('cause' in item.error) pending.push({ error: item.error.cause, depth: item.depth + 1 })
    if (item.error instanceof AggregateError)
      for (const inner of item.error.errors.slice(0, MAX_AGGREGATED)) pending.push({ error: inner, depth: item.depth + 1 })
  }
  return false
}
