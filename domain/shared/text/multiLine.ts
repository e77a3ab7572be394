// Which text fields of a request may span lines. Every string a client sends is one line unless its
// zod schema is declared multi-line here; the request boundary asks `multiLinePaths` of a route's
// body schema for the fields where tab and line feed are allowed. The mark sits on the schema's
// definition like sensitive()'s (domain/shared/sensitive/marker.ts): `.describe()` and `.optional()`
// keep it, anything that builds a new definition (`.max()`, sensitive()) does not, so apply it last.
import type { z } from 'zod'

const marked = new WeakSet<object>()

/** The same string schema, declared multi-line (a clone: the schema passed in stays one line). */
export function multiLineText<S extends z.ZodType<string>>(schema: S): S {
  const copy = schema.clone({ ...schema._zod.def } as S['_zod']['def'])
  marked.add(copy._zod.def)
  return copy
}

export function isMultiLineText(schema: z.ZodType): boolean {
  return marked.has(schema._zod.def)
}

/** A field's path; `*` stands for any array index or record key. */
export type FieldPattern = readonly string[]

type Def = z.ZodType['_zod']['def'] & Record<string, unknown>

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'])
/** Levels followed into a schema: request shapes nest about 8 deep, and a lazy schema may not end. */
const MAX_WALK_DEPTH = 32

const memo = new WeakMap<object, FieldPattern[]>()

function walk(schema: z.ZodType, prefix: string[], out: FieldPattern[], depth: number): void {
  if (depth > MAX_WALK_DEPTH) return
  if (isMultiLineText(schema)) {
    out.push(prefix)
    return
  }
  const def = schema._zod.def as Def
  const child = (inner: unknown, path: string[] = prefix) => walk(inner as z.ZodType, path, out, depth + 1)
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries((schema as z.ZodObject).shape as Record<string, z.ZodType>)) child(value, [...prefix, key])
      if (def.catchall) child(def.catchall, [...prefix, '*'])
      return
    case 'array':
      return child(def.element, [...prefix, '*'])
    case 'record':
      return child(def.valueType, [...prefix, '*'])
    case 'union':
      for (const option of def.options as z.ZodType[]) child(option)
      return
    case 'intersection':
      child(def.left)
      return child(def.right)
    case 'pipe':
      child(def.in)
      return child(def.out)
    case 'lazy':
      return child((def.getter as () => z.ZodType)())
    default:
      if (WRAPPERS.has(def.type)) child(def.innerType)
  }
}

/** The fields of `schema` declared multi-line, found once per schema; none for what is not a zod schema. */
export function multiLinePaths(schema: z.ZodType): FieldPattern[] {
  const known = memo.get(schema)
  if (known) return known
  const found: FieldPattern[] = []
  walk(schema, [], found, 0)
  memo.set(schema, found)
  return found
}

/** True when the field at `path` (keys and indexes as text) matches one of `patterns`. */
export function matchesPattern(patterns: readonly FieldPattern[], path: readonly string[]): boolean {
  return patterns.some((pattern) => pattern.length === path.length && pattern.every((step, i) => step === '*' || step === path[i]))
}
