// The shape bounds of a free-form metadata object, checked without recursion: an explicit stack
// stops at the first level past the limit, so a value nested 10 000 levels costs a few steps and
// never reaches JSON.stringify (which would overflow the stack on it).

export type MetadataShapeLimits = { maxDepth: number; maxEntries: number }

/** Why `value` breaks the limits, or undefined. Depth counts containers: `{a:{b:1}}` is 2 levels. */
export function metadataShapeProblem(value: unknown, limits: MetadataShapeLimits): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  let entries = 0
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue
    if (item.depth > limits.maxDepth) return `at most ${limits.maxDepth} levels deep`
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value)
    entries += children.length
    if (entries > limits.maxEntries) return `at most ${limits.maxEntries} keys and array items in all`
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 })
  }
  return undefined
}
