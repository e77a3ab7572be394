// Public events of an agent's spending: agent.limit_reached (spec: Agent events), once per window,
// the first time a reservation fills it or a denial hits it. Amounts in minor units of the limits' currency.
import { publicEventMappersOf } from '../publicEvents.js'
import type { AgentSpendEvent } from './events.js'

export const agentSpendPublicEvents = publicEventMappersOf<AgentSpendEvent>({
  AgentLimitReached: ({ data }) => ({
    type: 'agent.limit_reached',
    data: {
      id: data.agentId,
      window: data.window,
      currency: data.currency,
      limit: data.limitMinor,
      used: data.usedMinor,
      resetsAt: data.resetsAt,
      reachedAt: data.at,
    },
    tags: [data.agentId],
  }),
})
