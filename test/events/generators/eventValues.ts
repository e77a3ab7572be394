// Every registered event type's data, from its schema in the catalog: the largest instances (one per
// variant: each union option, each side of a flag) and a seeded arbitrary of valid ones, both parsed
// by the catalog exactly as an append would (so a transform or a trim is applied). A type whose
// schema the generator cannot satisfy fails here, by path, when the generator is built.
import type fc from 'fast-check'
import { AGGREGATES, validateNewEventData } from '../../../events/catalog.js'
import { eventFieldHints } from './fieldHints.js'
import { type Finding, valuesOf } from './schemaValues.js'

export type EventData = Record<string, unknown>

export type EventValues = {
  type: string
  /** The largest instance of each variant, parsed. */
  largest: EventData[]
  arbitrary: fc.Arbitrary<EventData>
  /** Unbounded, hinted and sampled fields, by path. */
  findings: Finding[]
}

/** Every stored event type of every aggregate, in catalog order. */
export const EVENT_TYPES: readonly string[] = AGGREGATES.flatMap((a) => Object.keys(a.eventSchemas))

function schemaOf(type: string) {
  const schema = AGGREGATES.map((a) => Object.entries(a.eventSchemas).find(([name]) => name === type)?.[1]).find((s) => s !== undefined)
  if (!schema) throw new Error(`${type} is not a registered event type`)
  return schema
}

const cache = new Map<string, EventValues>()

export function eventValuesOf(type: string): EventValues {
  const known = cache.get(type)
  if (known) return known
  const findings: Finding[] = []
  const values = valuesOf({ hints: eventFieldHints, findings }, schemaOf(type), '', '')
  const parse = (data: unknown): EventData => validateNewEventData(type, data)
  const largest = Array.from({ length: values.variants }, (_, variant) => parse(values.largest(variant)))
  const made: EventValues = { type, largest, arbitrary: values.arbitrary.map(parse), findings }
  cache.set(type, made)
  return made
}
