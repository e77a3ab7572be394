// The agent and its keys as the API shows them (spec: Agent). A key's secret appears once, in the
// answer that issues it; afterwards only its last four characters.
import { z } from 'zod'
import { storedMetadataSchema } from '../shared/metadata.js'
import { AGENT_STATUSES, MCP_ROLES, OVER_LIMIT_ACTIONS } from './agentBody.js'
import type { AgentKey, OpenAgent } from './decider.js'

export const agentResource = z
  .object({
    id: z.string().describe('Agent id, prefix agt_'),
    name: z.string(),
    description: z.string(),
    customerId: z.string(),
    sourceAccountId: z.string(),
    allowedDestinationAccountIds: z.array(z.string()),
    limits: z.object({
      currency: z.string(),
      perTransaction: z.string().describe('Minor units'),
      perDay: z.string().describe('Minor units, per calendar day (UTC)'),
      perMonth: z.string().describe('Minor units, per calendar month (UTC)'),
    }),
    overLimitAction: z.enum(OVER_LIMIT_ACTIONS),
    status: z.enum(AGENT_STATUSES),
    metadata: storedMetadataSchema,
    mcpRole: z.enum(MCP_ROLES),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('A limited-authority payment agent')
export type AgentResource = z.infer<typeof agentResource>

export function toAgentResource(s: OpenAgent): AgentResource {
  const { name, description, allowedDestinationAccountIds, limits, overLimitAction, metadata, mcpRole } = s.settings
  return {
    id: s.agentId,
    name,
    description,
    customerId: s.customerId,
    sourceAccountId: s.sourceAccountId,
    allowedDestinationAccountIds,
    limits,
    overLimitAction,
    status: s.status,
    metadata,
    mcpRole,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }
}

export const AGENT_KEY_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const

export const agentKeyResource = z
  .object({
    id: z.string().describe('Key id, prefix agk_'),
    agentId: z.string(),
    last4: z.string().describe('The last four characters of the key'),
    status: z.enum(AGENT_KEY_STATUSES).describe('REVOKED once the key or its agent was revoked; EXPIRED past expiresAt'),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .describe('An agent key, without its secret')
export type AgentKeyResource = z.infer<typeof agentKeyResource>

export function toAgentKeyResource(agentId: string, key: AgentKey, revokedAt: string | null, now: Date): AgentKeyResource {
  const expired = key.expiresAt !== null && key.expiresAt <= now.toISOString()
  return {
    id: key.keyId,
    agentId,
    last4: key.last4,
    status: revokedAt !== null ? 'REVOKED' : expired ? 'EXPIRED' : 'ACTIVE',
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    revokedAt,
  }
}

export const issuedAgentKeyResource = agentKeyResource
  .extend({
    key: z
      .string()
      .describe('The key (sk_sandbox_agent_... or sk_live_agent_...): shown this once, stored only as a hash. Send it as a Bearer token'),
  })
  .describe('A new agent key, with its secret shown once')

const windowRead = z.object({
  limit: z.string().describe('Minor units of the limits currency'),
  used: z.string().describe('Reserved by transfers in this window (released ones not counted)'),
  remaining: z.string().describe('limit - used, never below 0'),
  resetsAt: z.string().describe('When the window starts again: 00:00 UTC of the next day, or of the 1st of the next month'),
})

export const agentLimitsResource = z
  .object({
    agentId: z.string(),
    currency: z.string(),
    overLimitAction: z.enum(OVER_LIMIT_ACTIONS),
    perTransaction: z.object({ limit: z.string() }),
    perDay: windowRead,
    perMonth: windowRead,
  })
  .describe("An agent's limits with what each calendar window (UTC) has used and has left")
export type AgentLimitsResource = z.infer<typeof agentLimitsResource>
