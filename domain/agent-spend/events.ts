// Events of an agent's spending, one stream per agent (`agent_spend-agt_...`), apart from the agent's
// own stream so that its settings' history stays short and each reservation appends a few bytes:
// an amount reserved for a transfer (converted to the limits' currency at a recorded rate), a denial,
// the first time in a window that the agent reached its limit (public agent.limit_reached), and a
// release (the transfer was cancelled, failed or declined).
import { z } from 'zod'
import { SPEND_WINDOWS } from '../agent/spendWindows.js'

const id = z.string().min(1).max(64)
const at = z.iso.datetime()
const minor = z.string().regex(/^\d{1,40}$/)
const currency = z.string().min(3).max(5)
const ref = { agentId: id, organizationId: id, transferId: id }

/** What the transfer moves, in its own currency, and the rate that made it the reserved amount (null: the same currency). */
export const spendConversion = z.object({
  currency,
  amountMinor: minor,
  /** Limits-currency minor units per one minor unit of `currency`, as a decimal string. */
  rate: z.string().max(64).nullable(),
  rateSource: z.string().max(64).nullable(),
})

export const AgentSpendReserved = z.object({ ...ref, currency, amountMinor: minor, conversion: spendConversion, at })
export const AgentSpendDenied = z.object({
  ...ref,
  window: z.enum(SPEND_WINDOWS),
  currency,
  limitMinor: minor,
  usedMinor: minor.nullable(),
  attemptedMinor: minor,
  /** APPROVAL_REQUIRED: the agent's owner decides (REQUEST_APPROVAL); DENIED: refused for good. */
  outcome: z.enum(['DENIED', 'APPROVAL_REQUIRED']),
  at,
})
export const AgentLimitReached = z.object({
  agentId: id,
  organizationId: id,
  window: z.enum(['PER_DAY', 'PER_MONTH']),
  /** The window reached: its day (YYYY-MM-DD) or month (YYYY-MM). */
  windowKey: z.string().max(10),
  currency,
  limitMinor: minor,
  usedMinor: minor,
  resetsAt: at,
  at,
})
/** `reservedAt`: the windows the amount was counted in (a release frees those, not today's if the day has turned). */
export const AgentSpendReleased = z.object({ ...ref, currency, amountMinor: minor, reservedAt: at, reason: z.string().max(64), at })

export const agentSpendEventSchemas = { AgentSpendReserved, AgentSpendDenied, AgentLimitReached, AgentSpendReleased } as const

type Of<K extends keyof typeof agentSpendEventSchemas> = { type: K; data: z.infer<(typeof agentSpendEventSchemas)[K]> }
export type AgentSpendEvent = Of<'AgentSpendReserved'> | Of<'AgentSpendDenied'> | Of<'AgentLimitReached'> | Of<'AgentSpendReleased'>
