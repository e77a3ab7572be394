// Projects agents: one row per agent holding the aggregate's state, evolved with the decider's own
// evolve (so the read side never drifts from the write side), and its keys, one row each, for
// authentication and the key list. Revoking an agent revokes its keys' rows in the same batch.
import type { Kysely } from 'kysely'
import { type AgentState, agentDecider } from '../domain/agent/decider.js'
import { type AgentEvent, agentEventSchemas } from '../domain/agent/events.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'

async function stateOf(db: Kysely<ReadDatabase>, agentId: string): Promise<AgentState> {
  const row = await db.selectFrom('agents').select('state').where('id', '=', agentId).executeTakeFirst()
  return row?.state ?? agentDecider.initialState()
}

async function projectKeys(db: Kysely<ReadDatabase>, event: AgentEvent): Promise<void> {
  switch (event.type) {
    case 'AgentKeyIssued': {
      const d = event.data
      await db
        .insertInto('agent_keys')
        .values({
          id: d.keyId,
          agent_id: d.agentId,
          organization_id: d.organizationId,
          environment: d.environment,
          key_hash: d.keyHash,
          last4: d.last4,
          expires_at: d.expiresAt,
          created_at: d.at,
          revoked_at: null,
        })
        .onConflict((c) => c.column('id').doNothing())
        .execute()
      return
    }
    case 'AgentKeyRevoked':
      await db
        .updateTable('agent_keys')
        .set({ revoked_at: event.data.at })
        .where('id', '=', event.data.keyId)
        .where('revoked_at', 'is', null)
        .execute()
      return
    case 'AgentRevoked':
      await db
        .updateTable('agent_keys')
        .set({ revoked_at: event.data.at })
        .where('agent_id', '=', event.data.agentId)
        .where('revoked_at', 'is', null)
        .execute()
      return
    default:
      return
  }
}

export const agentsProjector: Projector = {
  name: 'agents',
  tables: ['agents', 'agent_keys'],
  handles: new Set(Object.keys(agentEventSchemas)),
  async apply(db, recorded) {
    const event = parsedEvent<AgentEvent>(recorded)
    const before = event.type === 'AgentCreated' ? agentDecider.initialState() : await stateOf(db, event.data.agentId)
    const state = agentDecider.evolve(before, event)
    if (state.status === 'none') throw new Error(`agent ${event.data.agentId} has no state after ${event.type}`)
    const row = {
      id: state.agentId,
      organization_id: state.organizationId,
      customer_id: state.customerId,
      source_account_id: state.sourceAccountId,
      status: state.status,
      mcp_role: state.settings.mcpRole,
      state: toJson(state),
      created_at: state.createdAt,
      updated_at: state.updatedAt,
    }
    await db
      .insertInto('agents')
      .values(row)
      .onConflict((c) =>
        c.column('id').doUpdateSet({ status: row.status, mcp_role: row.mcp_role, state: row.state, updated_at: row.updated_at }),
      )
      .execute()
    await projectKeys(db, event)
  },
}
