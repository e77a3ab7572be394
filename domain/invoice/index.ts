// The invoice aggregate's descriptor: one stream per invoice (`invoice-inv_...`). Not registered yet
// (events/catalog.ts, projections, routes): the HTTP slice of issue 28 wires it with its fixtures.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { invoiceDecider } from './decider.js'
import { invoiceEventSchemas } from './events.js'
import { invoicePublicEvents } from './publicEvents.js'

export const invoiceAggregate = defineAggregate({
  name: 'invoice',
  streamCategory: 'invoice',
  idPrefix: ID_PREFIXES.invoice,
  eventSchemas: invoiceEventSchemas,
  decider: invoiceDecider,
  publicEvents: invoicePublicEvents,
  // The payer's data is sealed under the payee customer's key (every event names it), as a transfer's beneficiary is.
  dataSubject: 'customer',
})
