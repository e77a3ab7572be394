// OpenAPI 3.0 wording of what zod emits. References: zod wraps a $ref in a one-item `allOf` when the
// use adds to it (a description, `nullable`, or nothing at all for an optional field); a bare wrapper
// becomes the $ref itself, a nullable one "the component or null" (`nullable` without a `type` beside
// it means nothing in 3.0), a described one stays (3.0 ignores anything beside a $ref). Enums: a
// nullable enum lists null among its values, as 3.0.3 asks, or null would not be one of them.

/** The one schema that accepts null and nothing else in OpenAPI 3.0 (`nullable` needs a `type`). */
export const NULL_SCHEMA = { type: 'object', nullable: true, enum: [null] } as const

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value)

/** The single $ref of a one-item allOf, if that is what `node` wraps. */
function wrappedRef(node: Node): Node | undefined {
  const { allOf } = node
  if (!Array.isArray(allOf) || allOf.length !== 1) return undefined
  const [only] = allOf as unknown[]
  return isNode(only) && typeof only.$ref === 'string' && Object.keys(only).length === 1 ? only : undefined
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (!isNode(value)) return value
  const node: Node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, tidy(child)]))
  if (node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null)) return { ...node, enum: [...node.enum, null] }
  const ref = wrappedRef(node)
  if (!ref) return node
  const { allOf: _allOf, nullable, ...rest } = node
  if (nullable === true) return { ...rest, anyOf: [ref, NULL_SCHEMA] }
  return Object.keys(rest).length === 0 ? ref : node
}

/** The document with every component reference and nullable enum worded as above. */
export function in30Wording<D extends object>(document: D): D {
  return tidy(document) as D
}
