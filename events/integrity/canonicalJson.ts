// RFC 8785 (JCS) canonical JSON, fast on the append path. JCS is ECMAScript's JSON.stringify with
// every object's keys sorted by UTF-16 code units, so this makes a copy whose objects hold their keys
// in that order (only where they are not already) and lets the native JSON.stringify write it: about
// half the time of the `canonicalize` package, the reference implementation it falls back to where a
// JS object cannot hold the order (integer-like keys, which objects always list first).
// test/integrity/canonicalJson.unit.test.ts checks both agree on every stored event type.
import canonicalize from 'canonicalize'

const INTEGER_LIKE_KEY = /^(?:0|[1-9]\d*)$/
/** Longer digit strings are not array indices, so objects keep them in insertion order. */
const MAX_INDEX_KEY_LENGTH = 10

class OrderNotRepresentable extends Error {}

/** The value with its objects' keys in JCS order; the same value where nothing had to move. */
function ordered(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const next = ordered(item)
      if (next !== item) (copy ??= value.slice())[i] = next
    }
    return copy ?? value
  }
  // A value with its own toJSON (a Date) is written as that, like JSON.stringify and canonicalize do.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return ordered((value as { toJSON: () => unknown }).toJSON())
  const object = value as Record<string, unknown>
  const keys = Object.keys(object)
  let sorted = true
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key.length <= MAX_INDEX_KEY_LENGTH && INTEGER_LIKE_KEY.test(key)) throw new OrderNotRepresentable()
    if (i > 0 && keys[i - 1]! > key) sorted = false
  }
  // The default sort compares UTF-16 code units, as JCS orders keys.
  if (!sorted) keys.sort()
  let copy: Record<string, unknown> | undefined = sorted ? undefined : {}
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const child = object[key]
    const next = ordered(child)
    if (copy) put(copy, key, next)
    else if (next !== child) {
      copy = {}
      for (let j = 0; j < i; j++) put(copy, keys[j]!, object[keys[j]!])
      put(copy, key, next)
    }
  }
  return copy ?? value
}

/** An own property even for "__proto__" (JSON.parse makes such a key; plain assignment would set the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/** The RFC 8785 text of a JSON value; undefined for a value JSON has no text for. */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(ordered(value))
  } catch (error) {
    if (error instanceof OrderNotRepresentable) return canonicalize(value)
    throw error
  }
}
