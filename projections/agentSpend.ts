// Projects what each agent has spent in its current windows (GET /v1/agents/{id}/limits): one row
// per agent, its day's and month's use rolled with the windows the domain uses
// (domain/agent/spendWindows.ts). A release frees the windows of its reservation (`reservedAt`).
import { type AgentSpendEvent, agentSpendEventSchemas } from '../domain/agent-spend/events.js'
import { type WindowUsage, usageAt, withSpend } from '../domain/agent/spendWindows.js'
import { parsedEvent } from './parsedEvent.js'
import type { Projector } from './runtime/projector.js'

function usageAfter(before: WindowUsage | null, event: AgentSpendEvent): WindowUsage {
  const at = new Date(event.data.at)
  switch (event.type) {
    case 'AgentSpendReserved':
      return withSpend(before, BigInt(event.data.amountMinor), at, at)
    case 'AgentSpendReleased':
      return withSpend(before, -BigInt(event.data.amountMinor), new Date(event.data.reservedAt), at)
    case 'AgentSpendDenied':
    case 'AgentLimitReached':
      return usageAt(before, at)
  }
}

export const agentSpendProjector: Projector = {
  name: 'agent_spend',
  tables: ['agent_spend'],
  handles: new Set(Object.keys(agentSpendEventSchemas)),
  async apply(db, recorded) {
    const event = parsedEvent<AgentSpendEvent>(recorded)
    const { agentId, organizationId, currency, at } = event.data
    const row = await db.selectFrom('agent_spend').selectAll().where('agent_id', '=', agentId).executeTakeFirst()
    const before = row ? { day: row.day, usedDay: BigInt(row.used_day), month: row.month, usedMonth: BigInt(row.used_month) } : null
    const usage = usageAfter(before, event)
    const values = {
      day: usage.day,
      used_day: usage.usedDay.toString(),
      month: usage.month,
      used_month: usage.usedMonth.toString(),
      updated_at: at,
    }
    await db
      .insertInto('agent_spend')
      .values({ agent_id: agentId, organization_id: organizationId, currency, ...values })
      .onConflict((c) => c.column('agent_id').doUpdateSet(values))
      .execute()
  },
}
