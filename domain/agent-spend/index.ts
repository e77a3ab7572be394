// The agent spend aggregate's descriptor: one stream per agent (`agent_spend-agt_...`), beside the
// agent's own stream: the same id, as an FX trade shares its transfer's.
import { defineAggregate } from '../aggregate.js'
import { ID_PREFIXES } from '../shared/ids.js'
import { agentSpendDecider } from './decider.js'
import { agentSpendEventSchemas } from './events.js'
import { agentSpendPublicEvents } from './publicEvents.js'

export const agentSpendAggregate = defineAggregate({
  name: 'agentSpend',
  streamCategory: 'agent_spend',
  idPrefix: ID_PREFIXES.agent,
  eventSchemas: agentSpendEventSchemas,
  decider: agentSpendDecider,
  publicEvents: agentSpendPublicEvents,
  // Amounts and ids only; the organization owns the records.
  dataSubject: 'organization',
})
