// A parameter whose schema is a component ($ref) shows no description of its own in a viewer, and
// 3.0 ignores one written beside the $ref: the parameter takes the component's description.
const SCHEMAS_PREFIX = '#/components/schemas/'

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value)

function describe(parameter: unknown, schemas: Node): unknown {
  if (!isNode(parameter) || parameter.description !== undefined || !isNode(parameter.schema)) return parameter
  const ref = parameter.schema.$ref
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMAS_PREFIX)) return parameter
  const target = schemas[ref.slice(SCHEMAS_PREFIX.length)]
  return isNode(target) && typeof target.description === 'string' ? { ...parameter, description: target.description } : parameter
}

/** The document with each $ref parameter described as its component is. */
export function describeParameters<D extends object>(document: D): D {
  const { paths, components }: { paths?: unknown; components?: { schemas?: unknown } } = document
  if (!isNode(paths)) return document
  const schemas = isNode(components?.schemas) ? components.schemas : {}
  const described = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      isNode(item)
        ? Object.fromEntries(
            Object.entries(item).map(([method, operation]) => [
              method,
              isNode(operation) && Array.isArray(operation.parameters)
                ? { ...operation, parameters: operation.parameters.map((p: unknown) => describe(p, schemas)) }
                : operation,
            ]),
          )
        : item,
    ]),
  )
  return { ...document, paths: described }
}
