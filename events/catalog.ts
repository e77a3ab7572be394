// The event catalog: every aggregate's descriptor, and from them every stored event type with its
// schema and version. Events are validated on the way in and parsed (and upcast, when an old
// version exists) on the way out. Stream names (streams.ts) and the public-event mappers
// (webhooks/publicEventMappers.ts) are built from the same list: a new aggregate is one line here.
import type { z } from 'zod'
import type { DataSubjectRule, EventSchemas, EventUpcaster, EventUpcasters } from '../domain/aggregate.js'
import type { DomainEvent } from '../domain/decider.js'
import type { JsonValue } from '../domain/snapshot.js'
import { erasable } from '../domain/shared/sensitive/index.js'
import { counterpartyAggregate } from '../domain/counterparty/index.js'
import { matchClaimAggregate } from '../domain/match-claim/index.js'
import { customerAggregate } from '../domain/customer/index.js'
import { documentAggregate } from '../domain/document/index.js'
import { fxQuoteAggregate } from '../domain/fx-quote/index.js'
import { fxSettingsAggregate } from '../domain/fx-settings/index.js'
import { fxTradeAggregate } from '../domain/fx-trade/index.js'
import { fxTradeSlotsAggregate } from '../domain/fx-trade-slot/index.js'
import { liquidityFacilityAggregate } from '../domain/liquidity-facility/index.js'
import { organizationAggregate } from '../domain/organization/index.js'
import { termsAgreementAggregate } from '../domain/terms/index.js'
import { webhookEndpointAggregate } from '../domain/webhook-endpoint/index.js'
import { accountAggregate } from '../domain/account/index.js'
import { agentAggregate } from '../domain/agent/index.js'
import { agentSpendAggregate } from '../domain/agent-spend/index.js'
import { transferAggregate } from '../domain/transfer/index.js'
import { transferDraftAggregate } from '../domain/transfer-draft/index.js'
import { invoiceAggregate } from '../domain/invoice/index.js'

export const AGGREGATES = [
  organizationAggregate,
  webhookEndpointAggregate,
  customerAggregate,
  documentAggregate,
  termsAgreementAggregate,
  accountAggregate,
  counterpartyAggregate,
  matchClaimAggregate,
  liquidityFacilityAggregate,
  transferAggregate,
  fxSettingsAggregate,
  fxQuoteAggregate,
  fxTradeAggregate,
  fxTradeSlotsAggregate,
  agentAggregate,
  agentSpendAggregate,
  transferDraftAggregate,
  invoiceAggregate,
] as const

type Entry = {
  schema: z.ZodType<Record<string, unknown>>
  /** The read form: a sensitive field may hold ERASED (its subject's data was erased). */
  readSchema: z.ZodType<Record<string, unknown>>
  /** Whose data key seals its sensitive fields (the aggregate descriptor's choice). */
  dataSubject: DataSubjectRule
  /** The version new events are written in: one more than its upcasters. */
  version: number
  /** upcasters[i] brings version i + 1 to i + 2. */
  upcasters: readonly EventUpcaster[]
}

/**
 * An aggregate as the catalog's users see it, whatever its own types: its decider's members are
 * written as methods so that every descriptor fits (their parameters are compared both ways). Its
 * state only ever goes back to the same decider (the snapshot rebuild folds and encodes with it).
 */
export type CatalogAggregate = {
  name: string
  streamCategory: string
  eventSchemas: EventSchemas
  dataSubject?: DataSubjectRule
  upcasters?: EventUpcasters
  decider: {
    initialState(): unknown
    evolve(state: unknown, event: DomainEvent): unknown
    snapshot?: { version: number; everyEvents: number; encode(state: unknown): JsonValue | undefined; decode(json: unknown): unknown }
  }
}

function addToCatalog(catalog: Map<string, Entry>, aggregate: CatalogAggregate, shared: 'refused' | 'same schema'): void {
  for (const [type, schema] of Object.entries(aggregate.eventSchemas)) {
    const known = catalog.get(type)
    if (known && (shared === 'refused' || known.schema !== schema))
      throw new Error(`Event type ${type} registered twice (again by ${aggregate.name})`)
    const upcasters = aggregate.upcasters?.[type] ?? []
    if (!known)
      catalog.set(type, {
        schema,
        readSchema: erasable(schema),
        dataSubject: aggregate.dataSubject ?? 'aggregate',
        version: 1 + upcasters.length,
        upcasters,
      })
  }
  for (const type of Object.keys(aggregate.upcasters ?? {}))
    if (!(type in aggregate.eventSchemas)) throw new Error(`Upcasters for ${type}, which ${aggregate.name} does not store`)
}

const catalog = new Map<string, Entry>()
for (const aggregate of AGGREGATES) addToCatalog(catalog, aggregate, 'refused')
const aggregates: CatalogAggregate[] = [...AGGREGATES]

/**
 * Adds an aggregate that is not in AGGREGATES, for the process that calls it: tests and benches of
 * the command runtime with a decider of their own. Its event types may be a listed aggregate's,
 * with the very same schemas (a test decider over a real aggregate's events).
 */
export function registerAggregate(aggregate: CatalogAggregate): void {
  if (aggregates.some((a) => a.name === aggregate.name || a.streamCategory === aggregate.streamCategory))
    throw new Error(`Aggregate ${aggregate.name} (${aggregate.streamCategory}) registered twice`)
  addToCatalog(catalog, aggregate, 'same schema')
  aggregates.push(aggregate)
}

/** The aggregate whose streams are `<category>-<id>`, if any. */
export function aggregateOfCategory(category: string): CatalogAggregate | undefined {
  return aggregates.find((a) => a.streamCategory === category)
}

export class UnknownEventTypeError extends Error {
  override readonly name = 'UnknownEventTypeError'
}

function entryOf(type: string): Entry {
  const entry = catalog.get(type)
  if (!entry) throw new UnknownEventTypeError(`Unknown event type ${type}`)
  return entry
}

export class UnknownEventVersionError extends Error {
  override readonly name = 'UnknownEventVersionError'
}

/** What parsing a stored event needs: its type, its data as the codec opened it, the version its metadata names (none: 1). */
export type StoredEventData = { type: string; data: unknown; metadata: { schemaVersion?: number | undefined } }

/**
 * Parses a stored event's data as its type's current version: upcast from the version it was written
 * in (absent: 1), then checked against the read form (an erased sensitive field reads as ERASED).
 * Throws on an unknown type, a version newer than this code knows, or bad data.
 */
export function parseEventData(event: StoredEventData): Record<string, unknown> {
  const entry = entryOf(event.type)
  const written = event.metadata.schemaVersion ?? 1
  if (!Number.isInteger(written) || written < 1 || written > entry.version)
    throw new UnknownEventVersionError(`${event.type} version ${String(written)}: this code reads versions 1 to ${entry.version}`)
  let data = event.data as Record<string, unknown>
  for (let version = written; version < entry.version; version++) data = entry.upcasters[version - 1]!(data)
  return entry.readSchema.parse(data)
}

/**
 * Parses data a decider wrote in this code's version (a spec's or a generator's domain event, never one
 * read back from the store: that one goes through parseEventData with its metadata).
 */
export function parseCurrentEventData(event: { type: string; data: unknown }): Record<string, unknown> {
  return parseEventData({ ...event, metadata: { schemaVersion: schemaVersionOf(event.type) } })
}

/** The version a new event of this type is written in; 1 for an unknown type. */
export function schemaVersionOf(type: string): number {
  return catalog.get(type)?.version ?? 1
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
