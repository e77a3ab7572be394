// What auditors must not see in an event: webhook signing secrets and API key hashes (a hash of a
// high-entropy key is not reversible, but it is a lookup credential for anyone with the database).
export const REDACTED_KEYS: ReadonlySet<string> = new Set(['secret', 'keyHash'])
export const REDACTED = '[redacted]'

/** A copy of `value` with every property named in REDACTED_KEYS replaced, at any depth. */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, REDACTED_KEYS.has(key) ? REDACTED : redact(inner)]))
}
