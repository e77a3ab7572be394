// Public events of agents (spec: agent.created, agent.updated, agent.limit_reached, agent.revoked).
// agent.created carries the whole agent; agent.updated names what changed (`changed`: settings, or
// `status` for a pause or resume) with the new values; agent.revoked is final. Key issuance and
// revocation have no public event (the spec names none; the audit keeps them in the agent's stream).
import { publicEventMappersOf } from '../publicEvents.js'
import type { AgentEvent } from './events.js'

export const agentPublicEvents = publicEventMappersOf<AgentEvent>({
  AgentCreated: ({ data }) => {
    const { agentId, organizationId: _o, at, customerId, sourceAccountId, ...settings } = data
    return {
      type: 'agent.created',
      data: { id: agentId, customerId, sourceAccountId, ...settings, status: 'ACTIVE', createdAt: at, updatedAt: at },
      tags: [agentId, customerId],
    }
  },
  AgentUpdated: ({ data }) => {
    const { agentId, organizationId: _o, at, ...change } = data
    return { type: 'agent.updated', data: { id: agentId, ...change, updatedAt: at }, tags: [agentId] }
  },
  AgentPaused: ({ data }) => ({
    type: 'agent.updated',
    data: { id: data.agentId, changed: ['status'], status: 'PAUSED', reason: data.reason, updatedAt: data.at },
    tags: [data.agentId],
  }),
  AgentResumed: ({ data }) => ({
    type: 'agent.updated',
    data: { id: data.agentId, changed: ['status'], status: 'ACTIVE', updatedAt: data.at },
    tags: [data.agentId],
  }),
  AgentRevoked: ({ data }) => ({
    type: 'agent.revoked',
    data: { id: data.agentId, status: 'REVOKED', reason: data.reason, revokedAt: data.at },
    tags: [data.agentId],
  }),
})
