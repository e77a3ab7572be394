// The last pass over the components the zod registry emitted: fastify-type-provider-zod writes each
// registered schema twice (`XInput` for requests, `X` for responses); where both are the same shape
// they become one, and components no operation reaches are dropped (Redocly: no-unused-components).
const SCHEMAS_PREFIX = '#/components/schemas/'
const INPUT_SUFFIX = 'Input'

type Schemas = Record<string, unknown>

/** Every `$ref` target name in `value` (components/schemas only). */
function refsIn(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out)
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMAS_PREFIX)) out.add(child.slice(SCHEMAS_PREFIX.length))
      else refsIn(child, out)
    }
  }
  return out
}

/** A deep copy of `value` with each `$ref` to a renamed component pointing at its new name. */
function renameRefs<T>(value: T, renamed: ReadonlyMap<string, string>): T {
  return JSON.parse(JSON.stringify(value), (key, child: unknown) => {
    if (key !== '$ref' || typeof child !== 'string' || !child.startsWith(SCHEMAS_PREFIX)) return child
    const to = renamed.get(child.slice(SCHEMAS_PREFIX.length))
    return to === undefined ? child : SCHEMAS_PREFIX + to
  }) as T
}

/**
 * The names whose request and response forms are the same schema once every such pair is merged:
 * start from every pair and drop the ones that differ until none does (a pair that differs only in
 * a nested pair that differs is not the same).
 */
function identicalTwins(schemas: Schemas): Set<string> {
  const twins = new Set(
    Object.keys(schemas).filter((name) => name.endsWith(INPUT_SUFFIX) && schemas[name.slice(0, -INPUT_SUFFIX.length)] !== undefined),
  )
  for (let changed = true; changed;) {
    changed = false
    const renamed = new Map([...twins].map((input) => [input, input.slice(0, -INPUT_SUFFIX.length)]))
    for (const input of twins) {
      const output = input.slice(0, -INPUT_SUFFIX.length)
      if (JSON.stringify(renameRefs(schemas[input], renamed)) !== JSON.stringify(renameRefs(schemas[output], renamed))) {
        twins.delete(input)
        changed = true
      }
    }
  }
  return twins
}

/** The document with identical request/response twins merged and unreferenced components removed. */
export function shareComponents<D extends object>(document: D): D {
  const { components, ...rest }: { components?: { schemas?: Schemas } } = document
  const twins = identicalTwins(components?.schemas ?? {})
  const renamed = new Map([...twins].map((input) => [input, input.slice(0, -INPUT_SUFFIX.length)]))
  const kept: Schemas = {}
  for (const [name, schema] of Object.entries(renameRefs(components?.schemas ?? {}, renamed))) if (!twins.has(name)) kept[name] = schema

  // Reachable: what the paths (and the other components) name, then what those name, to a fixed point.
  const paths = renameRefs(rest, renamed)
  const reached = refsIn(paths, new Set())
  for (let frontier = [...reached]; frontier.length > 0;) {
    const next: string[] = []
    for (const name of frontier) {
      for (const ref of refsIn(kept[name], new Set())) {
        if (reached.has(ref)) continue
        reached.add(ref)
        next.push(ref)
      }
    }
    frontier = next
  }
  const used = Object.fromEntries(
    Object.entries(kept)
      .filter(([name]) => reached.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  )
  return { ...paths, components: { ...components, schemas: used } } as D
}
