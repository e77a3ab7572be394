// The invoice aggregate's descriptor: one stream per invoice (`invoice-inv_...`).
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { invoiceDecider } from './decider.js'
import { invoiceEventSchemas } from './events.js'
import { invoicePublicEvents } from './publicEvents.js'
import { invoiceUpcasters } from './upcasters.js'

export const invoiceAggregate = defineAggregate({
  name: 'invoice',
  streamCategory: 'invoice',
  idPrefix: ID_PREFIXES.invoice,
  eventSchemas: invoiceEventSchemas,
  upcasters: invoiceUpcasters,
  decider: invoiceDecider,
  publicEvents: invoicePublicEvents,
  // The payer's data is sealed under the payee customer's key (every event names it), as a transfer's beneficiary is.
  dataSubject: 'customer',
})
