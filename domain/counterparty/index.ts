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
  // The address is sealed with the customer's data key: erasing the customer erases its payees'
  // street lines too, its own (first-party) counterparty's copy of its address among them.
  dataSubject: 'customer',
})
