// Authenticates an agent key (sk_sandbox_agent_..., sk_live_agent_...): its hash names a key row, the
// key row its agent. Not cached: a pause, a revocation or the organization's switch takes effect on
// the next request. Refusals: an unknown, revoked or expired key is 401 (as any bad key); a PAUSED
// agent's key is 403 agent_paused; an organization whose agents were disabled, 403 agents_not_enabled.
import type { Kysely } from 'kysely'
import type { OpenAgent } from '../../domain/agent/decider.js'
import type { Environment } from '../../domain/shared/environment.js'
import { ApiError } from '../../http/errorBody.js'
import type { Principal } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'

export async function agentPrincipal(db: Kysely<ReadDatabase>, environment: Environment, keyHash: string, now: Date): Promise<Principal> {
  const row = await db
    .selectFrom('agent_keys as k')
    .innerJoin('agents as a', 'a.id', 'k.agent_id')
    .innerJoin('organizations as o', 'o.id', 'k.organization_id')
    .select(['k.id', 'k.organization_id', 'k.environment', 'k.expires_at', 'a.state', 'o.agents_enabled'])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row || row.environment !== environment) throw new ApiError(401, 'Invalid API key')
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime())
    throw new ApiError(401, 'Invalid API key: the agent key expired')
  const agent: OpenAgent = row.state
  if (agent.status === 'REVOKED') throw new ApiError(401, 'Invalid API key')
  if (!row.agents_enabled) throw new ApiError(403, 'Agents are not enabled for this organization', 'agents_not_enabled')
  if (agent.status === 'PAUSED')
    throw new ApiError(403, `Agent ${agent.agentId} is PAUSED: its keys work again once it is resumed`, 'agent_paused')
  return {
    organizationId: row.organization_id,
    keyId: row.id,
    environment: row.environment,
    agent: {
      agentId: agent.agentId,
      customerId: agent.customerId,
      sourceAccountId: agent.sourceAccountId,
      allowedDestinationAccountIds: agent.settings.allowedDestinationAccountIds,
      mcpRole: agent.settings.mcpRole,
    },
  }
}
