// The agent aggregate's descriptor: one stream per agent (`agent-agt_...`), its keys included.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { agentDecider } from './decider.js'
import { agentEventSchemas } from './events.js'
import { agentPublicEvents } from './publicEvents.js'

export const agentAggregate = defineAggregate({
  name: 'agent',
  streamCategory: 'agent',
  idPrefix: ID_PREFIXES.agent,
  eventSchemas: agentEventSchemas,
  decider: agentDecider,
  publicEvents: agentPublicEvents,
  // Nothing personal (names the owner gives its agent, account ids, key hashes); the organization owns the records.
  dataSubject: 'organization',
})
