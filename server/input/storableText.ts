// Text the service can store and replay: PostgreSQL refuses U+0000 in text and json, and an
// unpaired UTF-16 surrogate has no UTF-8 form. One such string accepted once would be an event
// no consumer could ever apply, so the request boundary refuses it in every field.

// Code units, not code points (no `u` flag): a high surrogate not followed by a low one, or a low
// one not preceded by a high one. (String.prototype.isWellFormed is ES2024, past our lib target.)
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `value` cannot be stored, or undefined when it can. */
export function unstorableTextReason(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain U+0000 (NUL)'
  if (UNPAIRED_SURROGATE.test(value)) return 'must not contain an unpaired UTF-16 surrogate'
  return undefined
}
