// Path parameters that name a resource by id: one builder, so every id is bounded and documented
// the same way. Combine several with `.extend(idParam(...).shape)`.
import { z } from 'zod'

/** Longer than any id the service issues (prefix + 26 characters, or evt_ + a UUID). */
export const ID_PARAM_MAX_LENGTH = 64

export function idParam<Name extends string>(name: Name, prefix: `${string}_`, label: string) {
  // A computed key widens to `string`; the cast names it back.
  const shape = { [name]: z.string().max(ID_PARAM_MAX_LENGTH).describe(`${label} id, prefix ${prefix}`) } as Record<Name, z.ZodString>
  return z.object(shape)
}
