// Events of an agent, one stream per agent (`agent-agt_...`): created, its settings changed (each
// change carries the whole new settings, so a reader needs no earlier event), paused, resumed,
// revoked (final), and its keys issued and revoked (hashes only: a key is shown once).
import { z } from 'zod'
import { environmentSchema } from '../shared/environment.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { AGENT_LIMITS, MCP_ROLES, OVER_LIMIT_ACTIONS } from './agentBody.js'

const id = z.string().min(1).max(64)
const at = z.iso.datetime()
const minor = z.string().regex(/^\d{1,40}$/)

export const storedAgentLimits = z.object({ currency: z.string().min(3).max(5), perTransaction: minor, perDay: minor, perMonth: minor })

/** What an owner sets and may change. */
export const agentSettings = {
  name: z.string().min(1).max(AGENT_LIMITS.nameMaxLength),
  description: z.string().max(AGENT_LIMITS.descriptionMaxLength),
  allowedDestinationAccountIds: z.array(id).max(AGENT_LIMITS.maxAllowedDestinations),
  limits: storedAgentLimits,
  overLimitAction: z.enum(OVER_LIMIT_ACTIONS),
  metadata: storedMetadataSchema,
  mcpRole: z.enum(MCP_ROLES),
}
export const agentSettingsSchema = z.object(agentSettings)
export type AgentSettings = z.infer<typeof agentSettingsSchema>

const ref = { agentId: id, organizationId: id }

export const AgentCreated = z.object({ ...ref, customerId: id, sourceAccountId: id, ...agentSettings, at })

export const AGENT_SETTING_NAMES = Object.keys(agentSettings) as (keyof AgentSettings)[]

export const AgentUpdated = z.object({
  ...ref,
  ...agentSettings,
  /** The settings this change touched, for the audit and the webhook. */
  changed: z
    .array(z.enum(AGENT_SETTING_NAMES as [keyof AgentSettings, ...(keyof AgentSettings)[]]))
    .min(1)
    .max(AGENT_SETTING_NAMES.length),
  at,
})

const reason = z.string().max(500).nullable()
export const AgentPaused = z.object({ ...ref, reason, at })
export const AgentResumed = z.object({ ...ref, at })
export const AgentRevoked = z.object({ ...ref, reason, at })

export const AgentKeyIssued = z.object({
  ...ref,
  keyId: id,
  environment: environmentSchema,
  /** SHA-256 of the whole key, hex; the key itself is shown once and never stored. */
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  last4: z.string().length(4),
  expiresAt: at.nullable(),
  at,
})
export const AgentKeyRevoked = z.object({ ...ref, keyId: id, at })

export const agentEventSchemas = {
  AgentCreated,
  AgentUpdated,
  AgentPaused,
  AgentResumed,
  AgentRevoked,
  AgentKeyIssued,
  AgentKeyRevoked,
} as const

type Of<K extends keyof typeof agentEventSchemas> = { type: K; data: z.infer<(typeof agentEventSchemas)[K]> }
export type AgentEvent =
  | Of<'AgentCreated'>
  | Of<'AgentUpdated'>
  | Of<'AgentPaused'>
  | Of<'AgentResumed'>
  | Of<'AgentRevoked'>
  | Of<'AgentKeyIssued'>
  | Of<'AgentKeyRevoked'>
