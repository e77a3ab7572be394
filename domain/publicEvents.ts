// Public webhook events (spec: Events): their types, and how a stored domain event becomes one.
// Each aggregate with public events puts its mapper in its descriptor (`domain/<aggregate>/index.ts`);
// the webhook subscriber (webhooks/) asks every registered mapper. A stored event maps to at most one
// public event; the message id is `evt_` + the stored event's id, so replays never mint a new one.

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

/** Returns the public event for a stored event, or undefined when it has none. */
export type PublicEventMapper = (event: StoredEventView) => PublicEvent | undefined
