// The transfer aggregate's descriptor: one stream per transfer (`transfer-tfr_...`), its events and
// decider, and its public transfer.* events. Remitter identities are sealed with the source
// customer's key (`data.customerId` on TransferCreated; the organization's on later events).
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { transferDecider } from './decider.js'
import { transferEventSchemas } from './events.js'
import { transferPublicEvents } from './publicEvents.js'

export const transferAggregate = defineAggregate({
  name: 'transfer',
  streamCategory: 'transfer',
  idPrefix: ID_PREFIXES.transfer,
  eventSchemas: transferEventSchemas,
  decider: transferDecider,
  dataSubject: 'customer',
  publicEvents: transferPublicEvents,
})
