// Text the service can store and replay: PostgreSQL refuses U+0000 in text and json, and an
// unpaired UTF-16 surrogate has no UTF-8 form. One such string accepted once would be an event
// no consumer could ever apply, so the request boundary refuses it in every field, by the event
// store's own rule (events/store/storableData.ts), worded for a caller.
import { unstorableInString } from '../../events/store/storableData.js'

/** Why `value` cannot be stored, or undefined when it can. */
export function unstorableTextReason(value: string): string | undefined {
  const what = unstorableInString(value)
  return what === undefined ? undefined : `must not contain ${what}`
}
