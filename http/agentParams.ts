// Path parameters and the OpenAPI tag of the agent routes (writes in commands/agents, reads in read-api/agents).
import { idParam } from './idParam.js'

export const AGENT_TAGS = ['Agents']
export const agentParams = idParam('id', 'agt_', 'Agent')
export const agentKeyParams = agentParams.extend(idParam('keyId', 'agk_', 'Agent key').shape)
