// Path parameters that name a resource by id: one builder, so every id is bounded and documented
// the same way. Combine several with `.extend(idParam(...).shape)`. Each kind of id is one schema,
// named in the OpenAPI document (`CustomerId`, `EndpointId`) and referenced from every path it appears in.
import { z } from 'zod'

/** Longer than any id the service issues (prefix + 26 characters, or evt_ + a UUID). */
export const ID_PARAM_MAX_LENGTH = 64

/** What follows the prefix in a documented example: 26 time-ordered characters, or a UUID for evt_ (a stored event's id). */
const sampleAfter = (prefix: string): string => (prefix === 'evt_' ? '0193a0b2-7c4d-7e5f-8a6b-9c0d1e2f3a4b' : '01jdq5w1e2r3t4y5v6x7z8m9n0')

/** One schema per kind of id (prefix and label), made on first use. */
const ID_SCHEMAS = new Map<string, z.ZodString>()

function idSchema(prefix: `${string}_`, label: string): z.ZodString {
  const key = `${prefix} ${label}`
  const known = ID_SCHEMAS.get(key)
  if (known) return known
  const name = `${label.replace(/(^|\s)(\w)/g, (_, _space: string, letter: string) => letter.toUpperCase())}Id`
  const schema = z
    .string()
    .max(ID_PARAM_MAX_LENGTH)
    .meta({ id: name, description: `${label} id, prefix ${prefix}`, example: `${prefix}${sampleAfter(prefix)}` })
  ID_SCHEMAS.set(key, schema)
  return schema
}

export function idParam<Name extends string>(name: Name, prefix: `${string}_`, label: string) {
  // A computed key widens to `string`; the cast names it back.
  const shape = { [name]: idSchema(prefix, label) } as Record<Name, z.ZodString>
  return z.object(shape)
}
