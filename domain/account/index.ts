// The account aggregate's descriptor: one stream per account of any kind, its funds included, and
// its public balance.* events.
// Sensitive fields (bank account numbers, IBANs) are sealed with the owning customer's data key, so
// erasing the customer shreds them (the organization's key for its own accounts).
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { accountDecider } from './decider.js'
import { accountEventSchemas } from './events.js'
import { accountPublicEvents } from './publicEvents.js'

export const accountAggregate = defineAggregate({
  name: 'account',
  streamCategory: 'account',
  idPrefix: ID_PREFIXES.account,
  eventSchemas: accountEventSchemas,
  decider: accountDecider,
  dataSubject: 'customer',
  publicEvents: accountPublicEvents,
})
