// Reads of the agents read model, scoped to the organization and, with X-On-Behalf-Of, to that
// customer: one agent, a page of agents, an agent's keys.
import type { Kysely } from 'kysely'
import type { AgentStatus, McpRole } from '../../domain/agent/agentBody.js'
import {
  type AgentKeyResource,
  type AgentLimitsResource,
  type AgentResource,
  toAgentKeyResource,
  toAgentResource,
} from '../../domain/agent/resource.js'
import type { ListWindow } from '../../http/pagination/offsetShapedList.js'
import { agentLimitsAt } from '../../domain/agent/limitsRead.js'
import type { ReadDatabase } from '../../projections/schema.js'

export type AgentScope = { organizationId: string; onBehalfOf: string | undefined }
export type AgentFilters = {
  customerId?: string | undefined
  sourceAccountId?: string | undefined
  status?: AgentStatus | undefined
  mcpRole?: McpRole | undefined
}
type Page<T> = { data: T[]; total: number; offset: number }

function scoped(db: Kysely<ReadDatabase>, scope: AgentScope, filters: AgentFilters = {}) {
  let q = db.selectFrom('agents').where('organization_id', '=', scope.organizationId)
  if (scope.onBehalfOf !== undefined) q = q.where('customer_id', '=', scope.onBehalfOf)
  if (filters.customerId !== undefined) q = q.where('customer_id', '=', filters.customerId)
  if (filters.sourceAccountId !== undefined) q = q.where('source_account_id', '=', filters.sourceAccountId)
  if (filters.status !== undefined) q = q.where('status', '=', filters.status)
  if (filters.mcpRole !== undefined) q = q.where('mcp_role', '=', filters.mcpRole)
  return q
}

export async function findAgent(db: Kysely<ReadDatabase>, scope: AgentScope, id: string): Promise<AgentResource | undefined> {
  const row = await scoped(db, scope).select('state').where('id', '=', id).executeTakeFirst()
  return row ? toAgentResource(row.state) : undefined
}

/** The agent's limits with its current windows' use, at `at`; undefined for an agent outside the scope. */
export async function findAgentLimits(
  db: Kysely<ReadDatabase>,
  scope: AgentScope,
  id: string,
  at: Date,
): Promise<AgentLimitsResource | undefined> {
  let q = db
    .selectFrom('agents as a')
    .leftJoin('agent_spend as s', 's.agent_id', 'a.id')
    .select(['a.state', 's.day', 's.used_day', 's.month', 's.used_month'])
    .where('a.organization_id', '=', scope.organizationId)
    .where('a.id', '=', id)
  if (scope.onBehalfOf !== undefined) q = q.where('a.customer_id', '=', scope.onBehalfOf)
  const row = await q.executeTakeFirst()
  if (!row) return undefined
  const { agentId, settings } = row.state
  const usage =
    row.day === null || row.used_day === null || row.month === null || row.used_month === null
      ? null
      : { day: row.day, usedDay: BigInt(row.used_day), month: row.month, usedMonth: BigInt(row.used_month) }
  return agentLimitsAt({ agentId, limits: settings.limits, overLimitAction: settings.overLimitAction }, usage, at)
}

/** One page, newest first; undefined when the cursor names no agent of the filtered list. */
export async function listAgents(
  db: Kysely<ReadDatabase>,
  scope: AgentScope,
  filters: AgentFilters,
  window: ListWindow,
): Promise<Page<AgentResource> | undefined> {
  const base = scoped(db, scope, filters)
  const count = async (q: typeof base) => Number((await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
  const total = await count(base)
  const toPage = (rows: { state: Parameters<typeof toAgentResource>[0] }[]) => rows.map((r) => toAgentResource(r.state))
  if (window.startingAfter !== undefined) {
    const cursor = window.startingAfter
    if (!(await base.select('id').where('id', '=', cursor).executeTakeFirst())) return undefined
    const rows = await base.select('state').where('id', '<', cursor).orderBy('id', 'desc').limit(window.size).execute()
    return { data: toPage(rows), total, offset: await count(base.where('id', '>=', cursor)) }
  }
  const rows = await base.select('state').orderBy('id', 'desc').offset(window.offset).limit(window.size).execute()
  return { data: toPage(rows), total, offset: window.offset }
}

/** The agent's keys, newest first (revoked ones too), a page at a time. */
export async function listAgentKeys(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  agentId: string,
  window: ListWindow,
  now: Date,
): Promise<Page<AgentKeyResource> | undefined> {
  const base = db.selectFrom('agent_keys').where('organization_id', '=', organizationId).where('agent_id', '=', agentId)
  const count = async (q: typeof base) => Number((await q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
  const total = await count(base)
  const columns = ['id', 'last4', 'environment', 'expires_at', 'created_at', 'revoked_at'] as const
  type Row = {
    id: string
    last4: string
    environment: 'sandbox' | 'production'
    expires_at: Date | null
    created_at: Date
    revoked_at: Date | null
  }
  const toPage = (rows: Row[]) =>
    rows.map((r) =>
      toAgentKeyResource(
        agentId,
        {
          keyId: r.id,
          environment: r.environment,
          last4: r.last4,
          expiresAt: r.expires_at?.toISOString() ?? null,
          createdAt: r.created_at.toISOString(),
        },
        r.revoked_at?.toISOString() ?? null,
        now,
      ),
    )
  if (window.startingAfter !== undefined) {
    const cursor = window.startingAfter
    if (!(await base.select('id').where('id', '=', cursor).executeTakeFirst())) return undefined
    const rows = await base.select(columns).where('id', '<', cursor).orderBy('id', 'desc').limit(window.size).execute()
    return { data: toPage(rows), total, offset: await count(base.where('id', '>=', cursor)) }
  }
  const rows = await base.select(columns).orderBy('id', 'desc').offset(window.offset).limit(window.size).execute()
  return { data: toPage(rows), total, offset: window.offset }
}
