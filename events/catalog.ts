// The event catalog: every aggregate's descriptor, and from them every stored event type with its
// schema and version. Events are validated on the way in and parsed (and upcast, when an old
// version exists) on the way out. Stream names (streams.ts) and the public-event mappers
// (webhooks/publicEventMappers.ts) are built from the same list: a new aggregate is one line here.
import type { z } from 'zod'
import type { EventSchemas } from '../domain/aggregate.js'
import { customerAggregate } from '../domain/customer/index.js'
import { documentAggregate } from '../domain/document/index.js'
import { organizationAggregate } from '../domain/organization/index.js'
import { termsAgreementAggregate } from '../domain/terms/index.js'
import { webhookEndpointAggregate } from '../domain/webhook-endpoint/index.js'

export const AGGREGATES = [
  organizationAggregate,
  webhookEndpointAggregate,
  customerAggregate,
  documentAggregate,
  termsAgreementAggregate,
] as const

type Entry = { schema: z.ZodType<Record<string, unknown>>; version: number }

function buildCatalog(aggregates: readonly { name: string; eventSchemas: EventSchemas }[]): ReadonlyMap<string, Entry> {
  const catalog = new Map<string, Entry>()
  for (const aggregate of aggregates) {
    for (const [type, schema] of Object.entries(aggregate.eventSchemas)) {
      if (catalog.has(type)) throw new Error(`Event type ${type} registered twice (again by ${aggregate.name})`)
      catalog.set(type, { schema, version: 1 })
    }
  }
  return catalog
}

const catalog = buildCatalog(AGGREGATES)

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError'
}

/** Validates an event's data against its schema; throws on an unknown type or bad data. */
export function parseEventData(type: string, data: unknown): Record<string, unknown> {
  const entry = catalog.get(type)
  if (!entry) throw new UnknownEventTypeError(`Unknown event type ${type}`)
  return entry.schema.parse(data)
}

export function isKnownEventType(type: string): boolean {
  return catalog.has(type)
}
