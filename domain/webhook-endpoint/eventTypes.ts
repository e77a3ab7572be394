// Public webhook event types, as the spec names them. An endpoint's filterTypes must use these; an
// empty list subscribes to every type, including ones added later.
export const PUBLIC_EVENT_TYPES = [
  'customer.created', 'customer.updated', 'customer.verified', 'customer.status_changed', 'customer.deleted',
  'transfer.created', 'transfer.processing', 'transfer.updated', 'transfer.completed', 'transfer.failed',
  'transfer.cancelled', 'transfer.refund_initiated', 'transfer.refund_completed', 'transfer.reversed',
  'invoice.created', 'invoice.sent', 'invoice.paid', 'invoice.cancelled', 'invoice.overdue',
  'verification.session.created', 'verification.session.submitted', 'verification.session.completed',
  'verification.session.failed', 'verification.link.sent', 'verification.session.expired',
  'fx_trade.created', 'fx_trade.completed', 'fx_quote.expired',
  'agent.created', 'agent.updated', 'agent.limit_reached', 'agent.revoked',
  'balance.credited',
  'webhook.test',
] as const

export type PublicEventType = (typeof PUBLIC_EVENT_TYPES)[number]

const known = new Set<string>(PUBLIC_EVENT_TYPES)
export const isPublicEventType = (value: string): value is PublicEventType => known.has(value)
