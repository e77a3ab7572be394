// Values of a zod 4 schema, read from its definition (`schema._zod.def` and its checks): the LARGEST
// instance (every string at its max length in the character that costs most bytes as JSON, every
// array at its max items, numbers at their max, optional fields present, nullable ones non-null, one
// instance per union option), and a fast-check arbitrary of valid instances. Where the schema alone
// cannot say what is valid (a refinement, a regex, a field the domain fills in a format the schema
// does not state), a hint (fieldHints.ts) supplies curated values. Every leaf's largest value is
// checked against the leaf's own schema when the generator is built: a schema it cannot satisfy is
// a GeneratorGap naming the path, never a silent guess. What has no bound is recorded as a gap.
import fc from 'fast-check'
import { type core, z } from 'zod'

/** Stand-ins for what a schema leaves unbounded (recorded as gaps: the issue asks a limit on everything). */
export const UNBOUNDED_STAND_INS = {
  stringLength: 1_000,
  arrayItems: 100,
  recordEntries: 50,
  number: Number.MAX_SAFE_INTEGER,
} as const

/** Characters for the largest strings, costliest first as JSON (an escaped control character is 6 bytes, 漢 3). */
const LARGEST_CHARACTERS = ['\u0001', '漢', 'a', '0'] as const
/** Characters of random strings: no spaces (a trimmed field would change), none that a store refuses. */
const RANDOM_CHARACTERS = ['a', 'Z', '0', '9', '-', '_', '.', 'é', 'ß', '漢', '\u0001', '"', '\\'] as const

export class GeneratorGap extends Error {
  override readonly name = 'GeneratorGap'
}

/** What a hint sees of a leaf: where it is and the bounds its schema states. */
export type Leaf = {
  path: string
  key: string
  minLength: number
  maxLength: number | undefined
  schema: core.$ZodType
  /** Regexes and string formats (starts_with included) the leaf must match. */
  patterns: RegExp[]
  format: string | undefined
  /** A refinement (an opaque function) checks it too. */
  refined: boolean
}

/** Curated values for a leaf: the largest (by variant, for a cycle of samples) and random ones. */
export type Hint = { why: string; largest: (leaf: Leaf, variant: number) => unknown; arbitrary: (leaf: Leaf) => fc.Arbitrary<unknown> }

export type HintSource = (leaf: Leaf) => Hint | undefined

export type Finding = { path: string; kind: 'unbounded' | 'hinted' | 'sampled'; detail: string }

/** A schema's values: the largest instance for each variant, and random valid ones. */
export type Values = { largest: (variant: number) => unknown; arbitrary: fc.Arbitrary<unknown>; variants: number }

type Schema = core.$ZodTypes
type CheckDef = core.$ZodChecks['_zod']['def'] | { check: 'custom' }

// zod's own schemas and checks are these unions; their definitions are typed loosely on the way in.
const known = (schema: core.$ZodType): Schema => schema as Schema
const checksOf = (schema: core.$ZodType): CheckDef[] => (schema._zod.def.checks ?? []).map((c) => c._zod.def as CheckDef)

const valid = (schema: core.$ZodType, value: unknown): boolean => z.safeParse(schema, value).success

function lengthBounds(checks: CheckDef[]): { min: number; max: number | undefined } {
  let min = 0
  let max: number | undefined
  for (const c of checks) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum)
    if (c.check === 'max_length') max = Math.min(max ?? Infinity, c.maximum)
    if (c.check === 'length_equals') [min, max] = [c.length, c.length]
  }
  return { min, max }
}

function numberBounds(checks: CheckDef[]): { min: number | undefined; max: number | undefined; int: boolean } {
  let min: number | undefined
  let max: number | undefined
  const int = checks.some((c) => c.check === 'number_format')
  for (const c of checks) {
    if (c.check === 'greater_than') min = Number(c.value) + (c.inclusive ? 0 : int ? 1 : Number.EPSILON)
    if (c.check === 'less_than') max = Number(c.value) - (c.inclusive ? 0 : int ? 1 : Number.EPSILON)
  }
  return { min, max, int }
}

const constant = <T>(value: T): Values => ({ largest: () => value, arbitrary: fc.constant(value), variants: 1 })

export type Walk = { hints: HintSource; findings: Finding[] }

function note(walk: Walk, path: string, kind: Finding['kind'], detail: string): void {
  if (!walk.findings.some((f) => f.path === path && f.kind === kind)) walk.findings.push({ path, kind, detail })
}

/** A hint's values for a leaf, its largest checked against the leaf's schema for every variant it cycles through. */
function hinted(walk: Walk, leaf: Leaf, hint: Hint): Values {
  for (let variant = 0; variant < 4; variant++) {
    const value = hint.largest(leaf, variant)
    if (!valid(leaf.schema, value))
      throw new GeneratorGap(`${leaf.path}: the hint "${hint.why}" gives ${JSON.stringify(value)}, which the schema refuses`)
  }
  note(walk, leaf.path, 'hinted', hint.why)
  const fallback = hint.largest(leaf, 0)
  return {
    largest: (variant) => hint.largest(leaf, variant),
    arbitrary: hint.arbitrary(leaf).map((v) => (valid(leaf.schema, v) ? v : fallback)),
    variants: 1,
  }
}

function leafOf(schema: core.$ZodType, path: string, key: string): Leaf {
  const checks = checksOf(schema)
  const { min, max } = lengthBounds(checks)
  const def = schema._zod.def
  const format = 'format' in def && typeof def.format === 'string' ? def.format : undefined
  const ownPattern = 'pattern' in def && def.pattern instanceof RegExp ? [def.pattern] : []
  const patterns = [
    ...ownPattern,
    ...checks.flatMap((c) => (c.check === 'string_format' && 'pattern' in c && c.pattern ? [c.pattern] : [])),
  ]
  return { path, key, minLength: min, maxLength: max, schema, patterns, format, refined: checks.some((c) => c.check === 'custom') }
}

/** Formats whose every match is short (an address, a uuid, a timestamp); an email or a URL is not. */
const BOUNDED_FORMATS = new Set(['ipv4', 'ipv6', 'uuid', 'guid', 'datetime', 'date', 'time', 'cidrv4', 'cidrv6', 'mac', 'e164'])

/** True when a regex has no open-ended repetition (`*`, `+`, `{n,}`) outside an escape. */
const boundedPattern = (pattern: RegExp) => !/[*+]|\{\d+,\}/.test(pattern.source.replace(/\\./g, ''))

/** A string leaf nothing bounds: no maximum length, no bounded format or regex. */
function unboundedString(leaf: Leaf): boolean {
  if (leaf.maxLength !== undefined) return false
  if (leaf.format !== undefined && BOUNDED_FORMATS.has(leaf.format)) return false
  return !leaf.patterns.some((p) => p.source.startsWith('^') && p.source.endsWith('$') && boundedPattern(p))
}

function stringValues(walk: Walk, schema: core.$ZodType, path: string, key: string): Values {
  const leaf = leafOf(schema, path, key)
  if (unboundedString(leaf)) note(walk, path, 'unbounded', 'string without a maximum length')
  const hint = walk.hints(leaf)
  if (hint) return hinted(walk, leaf, hint)
  const { minLength: min, maxLength: max } = leaf
  const [pattern] = leaf.patterns
  if (pattern) {
    // A regex or a format: the largest of many samples that match, and the samples themselves.
    const arbitrary = fc.stringMatching(pattern).filter((v) => valid(schema, v))
    const samples = fc.sample(arbitrary, { seed: 1, numRuns: 300 })
    const largest = samples.reduce((a, b) => (b.length > a.length ? b : a), '')
    if (!valid(schema, largest)) throw new GeneratorGap(`${path}: no sample of ${String(pattern)} passes the schema; add a hint`)
    note(walk, path, 'sampled', `largest of 300 samples of ${String(pattern)} (${largest.length} characters)`)
    return { largest: () => largest, arbitrary, variants: 1 }
  }
  const length = max ?? UNBOUNDED_STAND_INS.stringLength
  const largest = LARGEST_CHARACTERS.map((c) => c.repeat(length)).find((v) => valid(schema, v))
  if (largest === undefined) throw new GeneratorGap(`${path}: no plain string of ${length} characters passes the schema; add a hint`)
  const arbitrary = fc
    .string({ unit: fc.constantFrom(...RANDOM_CHARACTERS), minLength: min, maxLength: length })
    .map((v) => (valid(schema, v) ? v : largest))
  return { largest: () => largest, arbitrary, variants: 1 }
}

function numberValues(walk: Walk, schema: core.$ZodType, path: string, key: string): Values {
  const leaf = leafOf(schema, path, key)
  const bounds = numberBounds(checksOf(schema))
  if (bounds.max === undefined) note(walk, path, 'unbounded', 'number without a maximum')
  const hint = walk.hints(leaf)
  if (hint) return hinted(walk, leaf, hint)
  const max = bounds.max ?? UNBOUNDED_STAND_INS.number
  const min = bounds.min ?? 0
  if (!valid(schema, max)) throw new GeneratorGap(`${path}: its maximum ${max} does not pass the schema; add a hint`)
  // Non-integers in cents: a refinement on decimal places (money-like numbers) accepts them.
  const arbitrary = bounds.int
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) })
    : fc.integer({ min: Math.ceil(min * 100), max: Math.floor(Math.min(max * 100, Number.MAX_SAFE_INTEGER)) }).map((cents) => cents / 100)
  return { largest: () => max, arbitrary: arbitrary.map((v) => (valid(schema, v) ? v : max)), variants: 1 }
}

function arrayValues(walk: Walk, schema: core.$ZodType, element: core.$ZodType, path: string, key: string): Values {
  const leaf = leafOf(schema, path, key)
  if (leaf.maxLength === undefined) note(walk, path, 'unbounded', 'array without a maximum length')
  const hint = walk.hints(leaf)
  if (hint) return hinted(walk, leaf, hint)
  const { minLength: min, maxLength: max } = leaf
  const items = valuesOf(walk, element, `${path}[]`, key)
  const count = max ?? UNBOUNDED_STAND_INS.arrayItems
  const largest = (variant: number) => Array.from({ length: count }, (_, i) => items.largest(variant + i))
  if (!valid(schema, largest(0))) return distinctValues(walk, schema, element, path, count)
  for (let variant = 0; variant < items.variants; variant++)
    if (!valid(schema, largest(variant)))
      throw new GeneratorGap(`${path}: ${count} largest items do not pass the array's schema; add a hint`)
  const arbitrary = fc
    .array(items.arbitrary, { minLength: min, maxLength: Math.min(count, 30) })
    .map((v) => (valid(schema, v) ? v : largest(0)))
  // Item i of the largest array is its items' variant `variant + i`: a full array holds every variant once.
  return { largest, arbitrary, variants: count >= items.variants ? 1 : items.variants }
}

/** An array of enum values that must not repeat (requested capabilities): every value once, or a random subset. */
function distinctValues(walk: Walk, schema: core.$ZodType, element: core.$ZodType, path: string, count: number): Values {
  const def = known(element)._zod.def
  if (def.type !== 'enum') throw new GeneratorGap(`${path}: ${count} largest items do not pass the array's schema; add a hint`)
  const entries = Object.values(def.entries).slice(0, count)
  if (!valid(schema, entries)) throw new GeneratorGap(`${path}: its distinct values do not pass the array's schema; add a hint`)
  note(walk, path, 'hinted', 'values that must not repeat: each enum value once')
  return { largest: () => entries, arbitrary: fc.subarray(entries), variants: 1 }
}

function objectValues(walk: Walk, shape: Readonly<Record<string, core.$ZodType>>, path: string): Values {
  const fields = Object.entries(shape).map(([key, child]) => ({
    key,
    optional: child._zod.def.type === 'optional',
    values: valuesOf(walk, child, path ? `${path}.${key}` : key, key),
  }))
  const variants = Math.max(1, ...fields.map((f) => f.values.variants))
  const model: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(fields.map((f) => [f.key, f.values.arbitrary]))
  return {
    largest: (variant) => Object.fromEntries(fields.map((f) => [f.key, f.values.largest(variant)])),
    arbitrary: fc.record(model, { requiredKeys: fields.filter((f) => !f.optional).map((f) => f.key) }),
    variants,
  }
}

function unionValues(walk: Walk, options: readonly core.$ZodType[], path: string, key: string): Values {
  const each = options.map((option, i) => valuesOf(walk, option, `${path}|${i}`, key))
  const first = each[0]
  if (!first) throw new GeneratorGap(`${path}: a union with no option`)
  return {
    largest: (variant) => (each[variant % each.length] ?? first).largest(Math.floor(variant / each.length)),
    arbitrary: fc.oneof(...each.map((v) => v.arbitrary)),
    variants: each.reduce((sum, v) => sum + v.variants, 0),
  }
}

function recordValues(
  walk: Walk,
  schema: core.$ZodType,
  keyType: core.$ZodType,
  valueType: core.$ZodType,
  path: string,
  key: string,
): Values {
  const leaf = leafOf(schema, path, key)
  note(walk, path, 'unbounded', 'record without a bound on its entries')
  const hint = walk.hints(leaf)
  if (hint) return hinted(walk, leaf, hint)
  const keys = valuesOf(walk, keyType, `${path}{key}`, key)
  const values = valuesOf(walk, valueType, `${path}{}`, key)
  const largest = (variant: number) =>
    Object.fromEntries(
      Array.from({ length: UNBOUNDED_STAND_INS.recordEntries }, (_, i) => [
        `${String(keys.largest(variant))}${i}`,
        values.largest(variant + i),
      ]),
    )
  return { largest, arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), values.arbitrary, { maxKeys: 10 }), variants: 1 }
}

/** The values of any schema node; `key` is the nearest object key (an array item's is its array's). */
export function valuesOf(walk: Walk, node: core.$ZodType, path: string, key: string): Values {
  const schema = known(node)
  const def = schema._zod.def
  switch (def.type) {
    case 'string':
      return stringValues(walk, schema, path, key)
    case 'number':
      return numberValues(walk, schema, path, key)
    case 'boolean':
      // Both, so the paths a flag opens are each taken by a largest instance.
      return { largest: (variant) => variant % 2 === 0, arbitrary: fc.boolean(), variants: 2 }
    case 'enum': {
      const entries = Object.values(def.entries)
      const longest = entries.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a))
      return { largest: () => longest, arbitrary: fc.constantFrom(...entries), variants: 1 }
    }
    case 'literal':
      return { largest: () => def.values[0], arbitrary: fc.constantFrom(...def.values), variants: 1 }
    case 'null':
      return constant(null)
    case 'unknown':
    case 'any':
      return {
        largest: () => 'x'.repeat(UNBOUNDED_STAND_INS.stringLength),
        arbitrary: fc.oneof(fc.string(), fc.integer(), fc.boolean()),
        variants: 1,
      }
    case 'array':
      return arrayValues(walk, schema, def.element, path, key)
    case 'object':
      return objectValues(walk, def.shape, path)
    case 'union':
      return unionValues(walk, def.options, path, key)
    case 'record':
      return recordValues(walk, schema, def.keyType, def.valueType, path, key)
    case 'optional':
    case 'nonoptional':
    case 'readonly':
    case 'default':
    case 'prefault':
    case 'catch':
      // Present in the largest instance; an object leaves an optional key out of some random ones.
      return valuesOf(walk, def.innerType, path, key)
    case 'nullable': {
      const inner = valuesOf(walk, def.innerType, path, key)
      return { ...inner, arbitrary: fc.option(inner.arbitrary, { nil: null, freq: 4 }) }
    }
    case 'pipe':
      // What goes in is what an event stores (a transform's output is the same value, typed).
      return valuesOf(walk, def.in, path, key)
    case 'lazy':
      return valuesOf(walk, def.getter(), path, key)
    default:
      throw new GeneratorGap(`${path}: no generator for a ${def.type} schema`)
  }
}
