// The Customer aggregate's descriptor: one stream per customer (verification data, terms, associated
// entities, verification sessions), and its public customer.* and verification.* events.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { customerDecider } from './decider.js'
import { customerEventSchemas } from './events.js'
import { customerPublicEvents } from './publicEvents.js'

export const customerAggregate = defineAggregate({
  name: 'customer',
  streamCategory: 'customer',
  idPrefix: ID_PREFIXES.customer,
  eventSchemas: customerEventSchemas,
  decider: customerDecider,
  publicEvents: customerPublicEvents,
})
