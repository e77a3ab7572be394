// Finds the sensitive leaves of a value through its zod schema: objects, arrays, optional,
// nullable and default wrappers, records and discriminated unions. A plain union with a sensitive
// option cannot be walked once its leaf is ciphertext (no option would match), so it is refused
// when the schema is first walked, as is any other shape holding a sensitive field.
import type { z } from 'zod'
import { isMarkedSensitive } from './marker.js'

/** Replaces one sensitive leaf; `field` is the name of the object key it sits under. */
export type SensitiveVisit = (value: string, field: string) => string

type Def = z.ZodType['_zod']['def'] & Record<string, unknown>

const defOf = (schema: z.ZodType): Def => schema._zod.def as Def

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'])

const memo = new WeakMap<object, boolean>()

export class UnwalkableSensitiveSchemaError extends Error {
  override readonly name = 'UnwalkableSensitiveSchemaError'
}

function childrenOf(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      return Object.values((schema as z.ZodObject).shape)
    case 'array':
      return [def.element as z.ZodType]
    case 'record':
      return [def.valueType as z.ZodType]
    case 'union':
      return def.options as z.ZodType[]
    case 'pipe':
      return [def.in as z.ZodType]
    case 'lazy':
      return [(def.getter as () => z.ZodType)()]
    case 'intersection':
      return [def.left as z.ZodType, def.right as z.ZodType]
    default:
      return WRAPPERS.has(def.type) ? [def.innerType as z.ZodType] : []
  }
}

/** True when the schema holds a sensitive field anywhere; throws for a shape the walk cannot follow. */
export function hasSensitive(schema: z.ZodType): boolean {
  const def = defOf(schema)
  const known = memo.get(def)
  if (known !== undefined) return known
  memo.set(def, false) // a recursive (lazy) schema meets itself as "no" while it is being decided
  const found = isMarkedSensitive(schema) || childrenOf(schema).some(hasSensitive)
  if (found && !isMarkedSensitive(schema)) {
    if (def.type === 'union' && def.discriminator === undefined)
      throw new UnwalkableSensitiveSchemaError('a sensitive field inside a union needs a discriminated union')
    if (def.type === 'intersection') throw new UnwalkableSensitiveSchemaError('a sensitive field inside an intersection')
  }
  memo.set(def, found)
  return found
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function optionFor(schema: z.ZodType, value: Record<string, unknown>): z.ZodType | undefined {
  const def = defOf(schema)
  const key = def.discriminator as string
  return (def.options as z.ZodType[]).find((option) => {
    const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[key]
    return values?.has(value[key]) ?? false
  })
}

function walk(schema: z.ZodType, value: unknown, field: string, visit: SensitiveVisit): unknown {
  if (value === undefined || value === null || !hasSensitive(schema)) return value
  if (isMarkedSensitive(schema)) return typeof value === 'string' ? visit(value, field) : value
  const def = defOf(schema)
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return value
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>
      const out: Record<string, unknown> = { ...value }
      for (const [key, child] of Object.entries(shape)) if (key in value) out[key] = walk(child, value[key], key, visit)
      return out
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => walk(def.element as z.ZodType, item, field, visit)) : value
    case 'record':
      return isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(def.valueType as z.ZodType, v, field, visit)]))
        : value
    case 'union': {
      const option = isPlainObject(value) ? optionFor(schema, value) : undefined
      return option ? walk(option, value, field, visit) : value
    }
    default: {
      const [inner] = childrenOf(schema)
      return inner ? walk(inner, value, field, visit) : value
    }
  }
}

/** A copy of `value` with each sensitive leaf replaced by `visit(leaf, field)`; the rest shared as is. */
export function mapSensitive(schema: z.ZodType, value: unknown, visit: SensitiveVisit): unknown {
  return walk(schema, value, '', visit)
}

/** Every sensitive leaf's value with its field name, in document order (for tests and audits). */
export function sensitiveLeaves(schema: z.ZodType, value: unknown): { field: string; value: string }[] {
  const found: { field: string; value: string }[] = []
  mapSensitive(schema, value, (leaf, field) => {
    found.push({ field, value: leaf })
    return leaf
  })
  return found
}

/** The paths of a schema's sensitive fields (`[]` marks an array's items), without a value: what is sealed, for docs and tests. */
export function sensitivePaths(schema: z.ZodType, prefix = ''): string[] {
  if (!hasSensitive(schema)) return []
  if (isMarkedSensitive(schema)) return [prefix]
  const def = defOf(schema)
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key)
  switch (def.type) {
    case 'object':
      return Object.entries((schema as z.ZodObject).shape as Record<string, z.ZodType>).flatMap(([k, s]) => sensitivePaths(s, join(k)))
    case 'array':
      return sensitivePaths(def.element as z.ZodType, `${prefix}[]`)
    case 'record':
      return sensitivePaths(def.valueType as z.ZodType, join('*'))
    default:
      return [...new Set(childrenOf(schema).flatMap((child) => sensitivePaths(child, prefix)))]
  }
}
