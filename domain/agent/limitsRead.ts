// An agent's limits as GET /v1/agents/{id}/limits shows them: each window's limit, what it has used,
// what remains and when it resets, at one instant (a window that has reset reads as unused).
import type { AgentLimits, OverLimitAction } from './agentBody.js'
import type { AgentLimitsResource } from './resource.js'
import { type WindowUsage, calendarWindowsAt, usageAt } from './spendWindows.js'

export function agentLimitsAt(
  agent: { agentId: string; limits: AgentLimits; overLimitAction: OverLimitAction },
  usage: WindowUsage | null,
  at: Date,
): AgentLimitsResource {
  const now = usageAt(usage, at)
  const w = calendarWindowsAt(at)
  const read = (limit: string, used: bigint, resetsAt: string) => {
    const cap = BigInt(limit)
    return { limit, used: used.toString(), remaining: (used >= cap ? 0n : cap - used).toString(), resetsAt }
  }
  return {
    agentId: agent.agentId,
    currency: agent.limits.currency,
    overLimitAction: agent.overLimitAction,
    perTransaction: { limit: agent.limits.perTransaction },
    perDay: read(agent.limits.perDay, now.usedDay, w.dayResetsAt),
    perMonth: read(agent.limits.perMonth, now.usedMonth, w.monthResetsAt),
  }
}
