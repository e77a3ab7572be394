// Public webhook events (spec: Events): their types, and how a stored domain event becomes one.
// Each aggregate with public events puts its mappers in its descriptor (`domain/<aggregate>/index.ts`),
// keyed by the stored event type each maps; the webhook subscriber (webhooks/) looks up the one
// mapper of an event's type. A stored event maps to at most one public event; the message id is
// `evt_` + the stored event's id, so replays never mint a new one.
import type { DomainEvent } from './decider.js'

// The types as the spec names them, for every aggregate, including those not built yet. An
// endpoint's filterTypes must use these; an empty list subscribes to every type, including ones
// added later.
export const PUBLIC_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.verified',
  'customer.status_changed',
  'customer.deleted',
  'transfer.created',
  'transfer.processing',
  'transfer.updated',
  'transfer.completed',
  'transfer.failed',
  'transfer.cancelled',
  'transfer.refund_initiated',
  'transfer.refund_completed',
  'transfer.reversed',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.cancelled',
  'invoice.overdue',
  'verification.session.created',
  'verification.session.submitted',
  'verification.session.completed',
  'verification.session.failed',
  'verification.link.sent',
  'verification.session.expired',
  'fx_trade.created',
  'fx_trade.completed',
  // Ours (the spec says "and more"): every other state an FX trade enters.
  'fx_trade.awaiting_deposit',
  'fx_trade.processing',
  'fx_trade.expired',
  'fx_trade.failed',
  'fx_trade.refunded',
  'fx_quote.expired',
  'agent.created',
  'agent.updated',
  'agent.limit_reached',
  'agent.revoked',
  'balance.credited',
  // Not named by the spec ("Complete list of event types: not shown"): a counterparty's lifecycle.
  'counterparty.created',
  'counterparty.deleted',
  'liquidity.draw.created',
  'liquidity.repayment.created',
  'liquidity.draw.failed',
  // Ours (the spec's list is not complete): money left a balance account (a payout settled, a reversal).
  'balance.debited',
  'webhook.test',
  // Ours (issue 29): a signed checkpoint of the event log's Merkle tree, sent to every subscriber so each holds a copy.
  'audit.checkpoint_sealed',
] as const

export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number]

const known = new Set<string>(PUBLIC_EVENT_TYPES)
export const isPublicEventType = (value: string): value is PublicEventType => known.has(value)

export type PublicEvent = {
  type: PublicEventType
  /** The envelope's `data`: exactly the fields the spec names for the type. */
  data: Record<string, unknown>
  /**
   * Resource ids named by the payload (customer, transfer, ...), for the messages `tag` filter: the
   * resource's own id first. A message keeps the first 20 (webhooks/envelope.ts `boundedTags`).
   */
  tags: string[]
}

export type StoredEventView = {
  type: string
  data: Record<string, unknown>
  recordedAt: Date
}

/** Returns the public event for a stored event of the type it is keyed by, or undefined when this one has none. */
export type PublicEventMapper = (event: StoredEventView) => PublicEvent | undefined

/** An aggregate's mappers by stored event type: a type without one has no public event. */
export type PublicEventMappers = { readonly [storedType: string]: PublicEventMapper }

/** A stored event of one of an aggregate's types, its data typed by that type's schema. */
export type StoredEventOf<Event extends DomainEvent, Type extends Event['type']> = Extract<Event, { type: Type }> & { recordedAt: Date }

/** An aggregate's mappers as it writes them: each key one of its own event types, each mapper given that type's data. */
export type PublicEventMappersOf<Event extends DomainEvent> = {
  readonly [Type in Event['type']]?: (event: StoredEventOf<Event, Type>) => PublicEvent | undefined
}

/**
 * An aggregate's typed mappers as the registry takes them. A mapper is called only with events of
 * the type it is keyed by, whose data the consumer runtime parsed with that type's schema
 * (events/consumers/applyBatch.ts); mappers that may see sealed data parse what they read themselves.
 */
export function publicEventMappersOf<Event extends DomainEvent>(mappers: PublicEventMappersOf<Event>): PublicEventMappers {
  return mappers as unknown as PublicEventMappers
}

/** The public event of a stored event under one set of mappers (an own key only: no prototype member is a mapper). */
export function publicEventOf(mappers: PublicEventMappers, event: StoredEventView): PublicEvent | undefined {
  return Object.hasOwn(mappers, event.type) ? mappers[event.type]?.(event) : undefined
}
