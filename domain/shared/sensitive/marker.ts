// Marks a field of a zod schema as sensitive (secrets and personal data): the event codec encrypts
// it on append and decrypts it on read, and read models seal it the same way. The mark sits on the
// schema's definition, so `.describe()` (a clone sharing the definition) keeps it; anything that
// builds a new definition (`.optional()`, `.max()`) wraps or replaces the marked schema, so apply
// `sensitive()` last on the leaf. Only text is sensitive: every value it marks is a string.
import type { z } from 'zod'

/** What a sensitive value reads as once its data key was destroyed (crypto-shredding). */
export const ERASED = '[erased]'

const marked = new WeakSet<object>()

/** The same schema, marked sensitive (a clone: the schema passed in stays unmarked). */
export function sensitive<S extends z.ZodType<string>>(schema: S): S {
  // A copy of the definition: clones made from it later (describe) share it and keep the mark.
  const copy = schema.clone({ ...schema._zod.def } as S['_zod']['def'])
  marked.add(copy._zod.def)
  return copy
}

export function isMarkedSensitive(schema: z.ZodType): boolean {
  return marked.has(schema._zod.def)
}

/** The masked form a read model or a response may show: the last 4 characters, the rest hidden. */
export function last4(value: string): string {
  if (value === ERASED) return ERASED
  const visible = [...value].slice(-4).join('')
  return value.length <= 4 ? '•'.repeat([...value].length) : visible
}
