// The event catalog: every aggregate's descriptor, and from them every stored event type with its
// schema and version. Events are validated on the way in and parsed (and upcast, when an old
// version exists) on the way out. Stream names (streams.ts) and the public-event mappers
// (webhooks/publicEventMappers.ts) are built from the same list: a new aggregate is one line here.
import type { z } from 'zod'
import type { DataSubjectRule, EventSchemas } from '../domain/aggregate.js'
import { erasable } from '../domain/shared/sensitive/index.js'
import { customerAggregate } from '../domain/customer/index.js'
import { documentAggregate } from '../domain/document/index.js'
import { liquidityFacilityAggregate } from '../domain/liquidity-facility/index.js'
import { organizationAggregate } from '../domain/organization/index.js'
import { termsAgreementAggregate } from '../domain/terms/index.js'
import { webhookEndpointAggregate } from '../domain/webhook-endpoint/index.js'
import { accountAggregate } from '../domain/account/index.js'

export const AGGREGATES = [
  organizationAggregate,
  webhookEndpointAggregate,
  customerAggregate,
  documentAggregate,
  termsAgreementAggregate,
  accountAggregate,
  liquidityFacilityAggregate,
] as const

type Entry = {
  schema: z.ZodType<Record<string, unknown>>
  /** The read form: a sensitive field may hold ERASED (its subject's data was erased). */
  readSchema: z.ZodType<Record<string, unknown>>
  /** Whose data key seals its sensitive fields (the aggregate descriptor's choice). */
  dataSubject: DataSubjectRule
  version: number
}

function buildCatalog(
  aggregates: readonly { name: string; eventSchemas: EventSchemas; dataSubject?: DataSubjectRule }[],
): ReadonlyMap<string, Entry> {
  const catalog = new Map<string, Entry>()
  for (const aggregate of aggregates) {
    for (const [type, schema] of Object.entries(aggregate.eventSchemas)) {
      if (catalog.has(type)) throw new Error(`Event type ${type} registered twice (again by ${aggregate.name})`)
      catalog.set(type, { schema, readSchema: erasable(schema), dataSubject: aggregate.dataSubject ?? 'aggregate', version: 1 })
    }
  }
  return catalog
}

const catalog = buildCatalog(AGGREGATES)

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError'
}

function entryOf(type: string): Entry {
  const entry = catalog.get(type)
  if (!entry) throw new UnknownEventTypeError(`Unknown event type ${type}`)
  return entry
}

/** Parses a stored event's data (read form: an erased sensitive field reads as ERASED); throws on an unknown type or bad data. */
export function parseEventData(type: string, data: unknown): Record<string, unknown> {
  return entryOf(type).readSchema.parse(data)
}

/** Validates a new event's data against its strict schema before it is appended. */
export function validateNewEventData(type: string, data: unknown): Record<string, unknown> {
  return entryOf(type).schema.parse(data)
}

/** Whose data key seals a registered type's sensitive fields (events/protection/eventCodec.ts). */
export function dataSubjectOf(type: string): DataSubjectRule {
  return catalog.get(type)?.dataSubject ?? 'aggregate'
}

/** The data schema of a registered type (the event codec finds the sensitive fields through it). */
export function eventSchemaOf(type: string): z.ZodType<Record<string, unknown>> | undefined {
  return catalog.get(type)?.schema
}

export function isKnownEventType(type: string): boolean {
  return catalog.has(type)
}
