// The counterparty aggregate's descriptor: one stream per counterparty.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { counterpartyDecider } from './decider.js'
import { counterpartyEventSchemas } from './events.js'
import { counterpartyPublicEvents } from './publicEvents.js'

export const counterpartyAggregate = defineAggregate({
  name: 'counterparty',
  streamCategory: 'counterparty',
  idPrefix: ID_PREFIXES.counterparty,
  eventSchemas: counterpartyEventSchemas,
  decider: counterpartyDecider,
  publicEvents: counterpartyPublicEvents,
  // The beneficiary is the data subject (default): a counterparty's address is sealed under its
  // own key, so its erasure never waits on the customer's, nor the customer's on it.
})
