// The agent decider bound for routes: one stream per agent, a create starts it.
import { type AgentState, agentDecider } from '../../domain/agent/decider.js'
import { toAgentResource } from '../../domain/agent/resource.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export function openedAgent(state: AgentState) {
  if (state.status === 'none') throw new Error('agent state missing after a successful command')
  return state
}

export const agentCommands = deciderBinding({
  decider: agentDecider,
  streamOf: (command) => streams.agent(command.agentId),
  startsStream: (command) => command.type === 'CreateAgent',
  toResource: (state: AgentState) => toAgentResource(openedAgent(state)),
})
