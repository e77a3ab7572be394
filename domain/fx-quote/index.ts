// The FX quote aggregate's descriptor: one stream per quote (fxq_).
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { fxQuoteDecider } from './decider.js'
import { fxQuoteEventSchemas } from './events.js'
import { fxQuotePublicEvents } from './publicEvents.js'

export const fxQuoteAggregate = defineAggregate({
  name: 'fxQuote',
  streamCategory: 'fx_quote',
  idPrefix: ID_PREFIXES.fxQuote,
  eventSchemas: fxQuoteEventSchemas,
  decider: fxQuoteDecider,
  publicEvents: fxQuotePublicEvents,
  // Nothing sensitive (amounts and a customer id); the organization owns the records.
  dataSubject: 'organization',
})
