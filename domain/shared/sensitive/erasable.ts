// The read form of a schema with sensitive fields: each sensitive leaf also accepts the ERASED
// marker, which is what a leaf reads as once its data key was destroyed. Write paths (request
// bodies, new events) keep the strict schema; replays, projections and rebuilds parse with this
// one, so they run cleanly over erased subjects.
import { z } from 'zod'
import { ERASED } from './marker.js'
import { hasSensitive } from './walk.js'
import { isMarkedSensitive } from './marker.js'

type Def = z.ZodType['_zod']['def'] & Record<string, unknown>

const memo = new WeakMap<object, z.ZodType>()

function build(schema: z.ZodType): z.ZodType {
  if (isMarkedSensitive(schema)) return z.union([schema, z.literal(ERASED)])
  const def = schema._zod.def as Def
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>
      const changed = Object.fromEntries(
        Object.entries(shape)
          .filter(([, s]) => hasSensitive(s))
          .map(([k, s]) => [k, erasable(s)]),
      )
      return (schema as z.ZodObject).extend(changed)
    }
    case 'array':
      return z.array(erasable(def.element as z.ZodType))
    case 'record':
      return z.record(def.keyType as z.ZodString, erasable(def.valueType as z.ZodType))
    case 'optional':
      return erasable(def.innerType as z.ZodType).optional()
    case 'nullable':
      return erasable(def.innerType as z.ZodType).nullable()
    case 'default':
      return erasable(def.innerType as z.ZodType).default(def.defaultValue as never)
    case 'union':
      return z.discriminatedUnion(
        def.discriminator as string,
        (def.options as z.ZodType[]).map((o) => erasable(o)) as unknown as [z.ZodObject, ...z.ZodObject[]],
      )
    default:
      throw new Error(`erasable: a sensitive field under a ${def.type} schema is not supported`)
  }
}

/** The schema itself when it holds nothing sensitive; otherwise its erasable read form (built once). */
export function erasable<S extends z.ZodType>(schema: S): S {
  if (!hasSensitive(schema)) return schema
  const def = schema._zod.def
  let read = memo.get(def)
  if (!read) {
    read = build(schema)
    memo.set(def, read)
  }
  // Same output type: a sensitive leaf is a string, and ERASED is one too.
  return read as S
}
