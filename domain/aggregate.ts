// What an aggregate tells the rest of the system about itself, in one value exported from
// `domain/<aggregate>/index.ts`: its stream category, id prefix, event schemas, decider and (when it
// has public events) its public-event mappers by stored type. The registries (events/catalog.ts and
// what is built from it: stream names, public-event mappers) take descriptors, so an aggregate is
// added in one line.
import type { z } from 'zod'
import type { Decider, DomainEvent } from './decider.js'
import type { PublicEventMappers } from './publicEvents.js'
import type { IdPrefix } from './shared/ids.js'

/** Each stored event type's data schema, by type name. */
export type EventSchemas = Record<string, z.ZodType<Record<string, unknown>>>

/**
 * Brings one stored version of an event's data to the next (docs/events.md, "Changing an event"):
 * pure, total over every event that version's schema accepted, and it keeps sensitive fields where
 * they are (the codec finds them with the current schema) and passes an ERASED marker through.
 */
export type EventUpcaster = (data: Record<string, unknown>) => Record<string, unknown>

/**
 * The types whose shape changed since their first version: entry i brings version i + 1 to i + 2,
 * so a type's current version is one more than its upcasters. A new event records its version in
 * its metadata (`schemaVersion`, absent for version 1); a stored one is upcast on every read.
 */
export type EventUpcasters = Record<string, readonly EventUpcaster[]>

export type AggregateDescriptor<Name extends string, State, Command, Event extends DomainEvent> = {
  /** The aggregate's key in the registries: `streams.<name>(id)`. */
  name: Name
  /** Streams are `<category>-<id>`, as EventStoreDB expects. */
  streamCategory: string
  /** The prefix of the ids of this aggregate's streams. */
  idPrefix: IdPrefix
  /** Every event type the aggregate stores; each of the decider's events must be among them. */
  eventSchemas: EventSchemas & Record<Event['type'], z.ZodType<Record<string, unknown>>>
  /** The commands: what they decide and how the state evolves. */
  decider: Decider<State, Command, Event>
  /** The event types with more than one version, and how each older one reads as the current one. */
  upcasters?: EventUpcasters
  /** How the aggregate's stored events become public webhook events, by stored type, when it has any. */
  publicEvents?: PublicEventMappers
  /**
   * Whose data key seals the sensitive fields of its events: the aggregate's own (a customer: its
   * erasure shreds exactly its data; the default), or its organization's (records an organization
   * owns and never erases one by one, whose new instances then cost no key of their own).
   */
  dataSubject?: DataSubjectRule
}

/**
 * Whose data key seals an aggregate's sensitive fields: its own, its organization's, or the customer
 * its event names in `data.customerId` (an account holding a customer's bank details: erasing the
 * customer shreds them; an event without a customer uses the organization's key).
 */
export type DataSubjectRule = 'aggregate' | 'organization' | 'customer'

/** Names a descriptor's types once, so registries keep each aggregate's own (not widened) types. */
export function defineAggregate<const Name extends string, State, Command, Event extends DomainEvent>(
  descriptor: AggregateDescriptor<Name, State, Command, Event>,
): AggregateDescriptor<Name, State, Command, Event> {
  return descriptor
}
