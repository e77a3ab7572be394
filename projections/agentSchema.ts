// The agents read models (migration 0027): agents and their keys, owned by projections/agents.ts.
import type { OpenAgent } from '../domain/agent/decider.js'
import type { Environment } from '../domain/shared/environment.js'
import type { Json, Timestamp } from './columnTypes.js'

/** One row per agent: its state (the aggregate's own), and the columns lists filter by. */
export interface AgentsTable {
  id: string
  organization_id: string
  customer_id: string
  source_account_id: string
  status: string
  mcp_role: string
  state: Json<OpenAgent>
  created_at: Timestamp
  updated_at: Timestamp
}

/** One row per agent key (its hash only), revoked ones kept for the list and the audit. */
export interface AgentKeysTable {
  id: string
  agent_id: string
  organization_id: string
  environment: Environment
  key_hash: string
  last4: string
  expires_at: Timestamp | null
  created_at: Timestamp
  revoked_at: Timestamp | null
}

/** One row per agent that has spent: its current windows' use, in minor units of its limits' currency. */
export interface AgentSpendTable {
  agent_id: string
  organization_id: string
  currency: string
  day: string
  used_day: string
  month: string
  used_month: string
  updated_at: Timestamp
}

export interface AgentDatabase {
  agents: AgentsTable
  agent_keys: AgentKeysTable
  agent_spend: AgentSpendTable
}
