// What auditors must not see in full in an event: webhook signing secrets and API key hashes
// (replaced), and every sensitive field (tax ids, document numbers, phone numbers, dates of birth,
// street lines: masked to their last four characters, enough to match a record, too little to reuse it).
import { ERASED, mapSensitive } from '../../domain/shared/sensitive/index.js'
import { eventSchemaOf } from '../catalog.js'

export const REDACTED_KEYS: ReadonlySet<string> = new Set(['secret', 'keyHash'])
export const MASKED_KEYS: ReadonlySet<string> = new Set(['taxIdentificationNumber', 'idNumber'])
export const REDACTED = '[redacted]'

/** A copy of `value` with secrets replaced and document numbers masked, at any depth. */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T
}

export function mask(value: string): string {
  return value.length <= 4 ? '****' : `${'*'.repeat(Math.min(value.length - 4, 12))}${value.slice(-4)}`
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (REDACTED_KEYS.has(key)) return [key, REDACTED]
      if (MASKED_KEYS.has(key) && typeof inner === 'string') return [key, mask(inner)]
      return [key, redact(inner)]
    }),
  )
}

/** An event's data with each field its schema marks sensitive masked (ERASED stays as it is). */
export function maskSensitive(type: string, data: Record<string, unknown>): Record<string, unknown> {
  const schema = eventSchemaOf(type)
  if (!schema) return data
  return mapSensitive(schema, data, (value) => (value === ERASED ? value : mask(value))) as Record<string, unknown>
}
