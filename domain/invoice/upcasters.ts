// How older versions of the invoice's events read as the current ones (domain/aggregate.ts, EventUpcasters).
import type { EventUpcasters } from '../aggregate.js'

export const invoiceUpcasters: EventUpcasters = {
  // Version 1 (issue 28) named the delivery by its bare method: `delivery: 'RECORDED_ONLY'`.
  InvoiceSent: [(data) => ({ ...data, delivery: { method: data['delivery'] } })],
}
