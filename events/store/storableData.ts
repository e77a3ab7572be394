// Whether an append's events survive the store and a replay unchanged. Both adapters write JSON
// text (Postgres `json`, EventStoreDB JSON events) that read models copy into jsonb and text
// columns, which refuse U+0000 and unpaired surrogates; JSON itself drops or rewrites non-finite
// numbers, -0, holes, Dates and class instances. One refused event would stop every consumer, so
// the store refuses the whole append instead. Pure, iterative and bounded: no input overflows the
// stack or walks forever.
import { type NewEvent, UnstorableEventError } from './port.js'

export const STORABLE_LIMITS = {
  /** Objects and arrays one inside the other, data or metadata included; the API bounds metadata far lower (5). */
  maxDepth: 32,
  /** Values (objects, arrays, scalars) walked per event. */
  maxValues: 100_000,
  /** Longest key shown in an error path; longer keys are cut. */
  maxKeyInPath: 40,
} as const

export type Unstorable = { path: string; reason: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units:
// no `u` flag). String.prototype.isWellFormed does this from ES2024, beyond this project's lib.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * What in a string cannot be stored (`U+0000 (NUL)`, `an unpaired UTF-16 surrogate`), or undefined
 * when it can; the one rule, shared with the request boundary (server/input/), which words it.
 */
export function unstorableInString(value: string): string | undefined {
  if (value.includes('\u0000')) return 'U+0000 (NUL)'
  if (UNPAIRED_SURROGATE.test(value)) return 'an unpaired UTF-16 surrogate'
  return undefined
}

/** Why a string cannot be stored, or undefined when it can. */
function unstorableStringReason(value: string): string | undefined {
  const what = unstorableInString(value)
  return what === undefined ? undefined : `contains ${what}`
}

/** A path segment for a key, safe to log: JSON escaping shows NUL and lone surrogates as \u escapes. */
function keySegment(key: string): string {
  if (IDENTIFIER.test(key)) return `.${key}`
  const shown = key.length > STORABLE_LIMITS.maxKeyInPath ? `${key.slice(0, STORABLE_LIMITS.maxKeyInPath)}…` : key
  return `[${JSON.stringify(shown)}]`
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

type Pending = { value: unknown; path: string; depth: number }

/** The first value under `root` that JSON storage would refuse or change, or undefined. */
export function findUnstorable(value: unknown, root: string): Unstorable | undefined {
  const stack: Pending[] = [{ value, path: root, depth: 0 }]
  let walked = 0
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!
    if (++walked > STORABLE_LIMITS.maxValues) return { path: root, reason: `has more than ${STORABLE_LIMITS.maxValues} values` }
    switch (typeof current) {
      case 'string': {
        const reason = unstorableStringReason(current)
        if (reason) return { path, reason }
        continue
      }
      case 'number':
        if (!Number.isFinite(current)) return { path, reason: 'is not a finite number' }
        if (Object.is(current, -0)) return { path, reason: 'is -0, which JSON stores as 0' }
        continue
      case 'boolean':
        continue
      case 'object':
        break
      default:
        // undefined (outside an object property), bigint, symbol, function: JSON drops or refuses them.
        return { path, reason: `is a ${typeof current}, which JSON cannot store` }
    }
    if (current === null) continue
    if (depth >= STORABLE_LIMITS.maxDepth) return { path, reason: `is nested deeper than ${STORABLE_LIMITS.maxDepth} levels` }
    if ('toJSON' in current) return { path, reason: 'has a toJSON method; JSON would store something else' }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        if (!(i in current)) return { path: `${path}[${i}]`, reason: 'is a hole in an array' }
        stack.push({ value: current[i], path: `${path}[${i}]`, depth: depth + 1 })
      }
      continue
    }
    if (!isPlainObject(current)) return { path, reason: 'is not a plain object or array' }
    if (Object.getOwnPropertySymbols(current).length > 0) return { path, reason: 'has symbol keys, which JSON drops' }
    const keys = Object.keys(current)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!
      const keyReason = unstorableStringReason(key)
      if (keyReason) return { path: `${path}${keySegment(key)}`, reason: `has a key that ${keyReason}` }
      const child = current[key]
      // An undefined property is left out by JSON and reads back absent: the same to every reader.
      if (child === undefined) continue
      stack.push({ value: child, path: `${path}${keySegment(key)}`, depth: depth + 1 })
    }
  }
  return undefined
}

/** Throws UnstorableEventError for the first part of the append the store could not keep or replay. */
export function assertStorableAppend(stream: string, events: readonly NewEvent[]): void {
  const streamReason = unstorableStringReason(stream)
  if (streamReason) throw new UnstorableEventError('stream', `the stream name ${streamReason}`)
  events.forEach((event, index) => {
    const at = `events[${index}]`
    if (typeof event.id !== 'string' || !UUID.test(event.id)) throw new UnstorableEventError(`${at}.id`, 'is not a UUID')
    const typeReason =
      typeof event.type === 'string' ? (event.type.length === 0 ? 'is empty' : unstorableStringReason(event.type)) : 'is not a string'
    if (typeReason) throw new UnstorableEventError(`${at}.type`, typeReason)
    for (const [part, value] of [
      ['data', event.data],
      ['metadata', event.metadata],
    ] as const) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new UnstorableEventError(`${at}.${part}`, 'is not a JSON object')
      const found = findUnstorable(value, `${at}.${part}`)
      if (found) throw new UnstorableEventError(found.path, found.reason)
    }
  })
}
