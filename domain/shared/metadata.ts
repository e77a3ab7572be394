// Metadata: the free-form object a client attaches to a resource for its own data, bounded in keys,
// depth, entries and bytes. The shape is checked without recursion: an explicit stack stops at the
// first level past the limit, so a value nested 10 000 levels costs a few steps and never reaches
// JSON.stringify (which would overflow the stack on it).
import { z } from 'zod'

export const METADATA_LIMITS = {
  maxKeys: 50,
  keyMaxLength: 40,
  maxBytes: 8_192,
  /** Levels of nesting, the object itself being level 1. */
  maxDepth: 5,
  /** Keys and array items at every level together. */
  maxEntries: 500,
} as const

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

const L = METADATA_LIMITS

// Shape first, and it aborts: the byte count serializes the value, which is safe only once its
// depth and size are known to be small.
export const metadataSchema = z
  .record(z.string().min(1).max(L.keyMaxLength), z.unknown())
  .refine((m) => Object.keys(m).length <= L.maxKeys, { message: `at most ${L.maxKeys} keys`, abort: true })
  .superRefine((m, ctx) => {
    const problem = metadataShapeProblem(m, L)
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: m, continue: false })
  })
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= L.maxBytes, `at most ${L.maxBytes} bytes as JSON`)
  .describe(
    `Free-form object for your own data: at most ${L.maxKeys} keys, ${L.maxDepth} levels deep, ` +
      `${L.maxEntries} keys and array items in all, ${L.maxBytes} bytes as JSON`,
  )
export type Metadata = z.infer<typeof metadataSchema>

/** Metadata as events and resources carry it: already checked on the way in, so only its type. */
export const storedMetadataSchema = z.record(z.string(), z.unknown())
