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
  let changed = false
  const children: unknown[] = []
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key.length <= MAX_INDEX_KEY_LENGTH && INTEGER_LIKE_KEY.test(key)) throw new OrderNotRepresentable()
    if (i > 0 && keys[i - 1]! > key) sorted = false
    const child = object[key]
    const next = ordered(child)
    if (next !== child) changed = true
    children.push(next)
  }
  if (sorted && !changed) return value
  const order = keys.map((key, i) => i)
  if (!sorted) order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1))
  // No prototype: an own "__proto__" key (JSON.parse makes one) stays a plain key.
  const copy = Object.create(null) as Record<string, unknown>
  for (const i of order) copy[keys[i]!] = children[i]
  return copy
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
