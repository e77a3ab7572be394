// An agent's spending (issue 27, point 4): every transfer an agent creates or submits reserves its
// amount here first, decided against the windows (domain/agent/spendWindows.ts). One stream per
// agent, so reservations are decided one after another and concurrent transfers never exceed a
// window together. Over a limit the reservation is refused and the refusal recorded (DENIED, or
// APPROVAL_REQUIRED for a submitted draft of a REQUEST_APPROVAL agent); the owner's approval
// reserves without the check. A cancelled, failed or declined transfer releases its reservation.
// agent.limit_reached is sent once per window: the first time a reservation fills it or a denial hits it.
import type { Decider } from '../decider.js'
import { assertInvariant, conflict } from '../errors.js'
import type { AgentLimits, OverLimitAction } from '../agent/agentBody.js'
import { type SpendDenial, type WindowUsage, calendarWindowsAt, spendDenial, usageAt, withSpend } from '../agent/spendWindows.js'
import type { AgentSpendEvent, spendConversion } from './events.js'
import type { z } from 'zod'

export type SpendConversion = z.infer<typeof spendConversion>
type Reservation = { amountMinor: string; at: string }

export type OpenAgentSpend = {
  status: 'open'
  agentId: string
  organizationId: string
  /** The current windows' use, in minor units of `currency` (strings: the state is stored as JSON). */
  currency: string
  day: string
  usedDay: string
  month: string
  usedMonth: string
  /** This month's open reservations by transfer (older ones no longer count in any window). */
  reservations: Record<string, Reservation>
  /** The windows that reached their limit (`PER_DAY:2026-11-28`), current ones only. */
  reached: string[]
  updatedAt: string
}
export type AgentSpendState = { status: 'none' } | OpenAgentSpend

type Scoped = { agentId: string; organizationId: string; transferId: string; now: string }

export type AgentSpendCommand =
  | (Scoped & {
      type: 'ReserveSpend'
      limits: AgentLimits
      overLimitAction: OverLimitAction
      /** A draft submitted by the agent: over a limit, a REQUEST_APPROVAL agent's owner may approve it. */
      submittedDraft: boolean
      amountMinor: string
      conversion: SpendConversion
    })
  /** The owner approved a transfer over a limit: reserved without the check. */
  | (Scoped & { type: 'ReserveApprovedSpend'; currency: string; amountMinor: string; conversion: SpendConversion })
  | (Scoped & { type: 'ReleaseSpend'; reason: string })

const usageOf = (s: AgentSpendState): WindowUsage | null =>
  s.status === 'none' ? null : { day: s.day, usedDay: BigInt(s.usedDay), month: s.month, usedMonth: BigInt(s.usedMonth) }

/** The spend's view at `at`: what each window has used. */
export const usageNow = (s: AgentSpendState, at: Date): WindowUsage => usageAt(usageOf(s), at)

const reachedKey = (window: 'PER_DAY' | 'PER_MONTH', at: Date) => {
  const w = calendarWindowsAt(at)
  return window === 'PER_DAY' ? `PER_DAY:${w.day}` : `PER_MONTH:${w.month}`
}

/** agent.limit_reached for each day or month window this use fills (or a denial hits) for the first time. */
function limitsReached(
  s: AgentSpendState,
  c: Scoped & { limits: AgentLimits },
  usage: WindowUsage,
  hit: SpendDenial | undefined,
): AgentSpendEvent[] {
  const at = new Date(c.now)
  const w = calendarWindowsAt(at)
  const seen = s.status === 'none' ? [] : s.reached
  const windows = [
    { window: 'PER_DAY' as const, limit: BigInt(c.limits.perDay), used: usage.usedDay, resetsAt: w.dayResetsAt, key: w.day },
    { window: 'PER_MONTH' as const, limit: BigInt(c.limits.perMonth), used: usage.usedMonth, resetsAt: w.monthResetsAt, key: w.month },
  ]
  return windows
    .filter((x) => (hit?.window === x.window || x.used >= x.limit) && !seen.includes(reachedKey(x.window, at)))
    .map((x) => ({
      type: 'AgentLimitReached' as const,
      data: {
        agentId: c.agentId,
        organizationId: c.organizationId,
        window: x.window,
        windowKey: x.key,
        currency: c.limits.currency,
        limitMinor: x.limit.toString(),
        usedMinor: x.used.toString(),
        resetsAt: x.resetsAt,
        at: c.now,
      },
    }))
}

function decide(command: AgentSpendCommand, state: AgentSpendState): AgentSpendEvent[] {
  if (state.status !== 'none' && state.organizationId !== command.organizationId)
    throw conflict('agent_spend_mismatch', `Agent ${command.agentId} belongs to another organization`)
  const ref = { agentId: command.agentId, organizationId: command.organizationId, transferId: command.transferId, at: command.now }
  const reserved = state.status === 'open' ? state.reservations[command.transferId] : undefined
  switch (command.type) {
    case 'ReserveSpend': {
      if (reserved) return []
      if (state.status === 'open') assertInvariant(state.currency === command.limits.currency, 'the limits currency never changes')
      const at = new Date(command.now)
      const amount = BigInt(command.amountMinor)
      const denial = spendDenial(command.limits, usageOf(state), amount, at)
      const currency = command.limits.currency
      if (denial) {
        const outcome = command.submittedDraft && command.overLimitAction === 'REQUEST_APPROVAL' ? 'APPROVAL_REQUIRED' : 'DENIED'
        const denied: AgentSpendEvent = {
          type: 'AgentSpendDenied',
          data: {
            ...ref,
            window: denial.window,
            currency,
            limitMinor: denial.limitMinor.toString(),
            usedMinor: denial.usedMinor?.toString() ?? null,
            attemptedMinor: amount.toString(),
            outcome,
          },
        }
        return [denied, ...limitsReached(state, command, usageAt(usageOf(state), at), denial)]
      }
      const after = withSpend(usageOf(state), amount, at, at)
      const event: AgentSpendEvent = {
        type: 'AgentSpendReserved',
        data: { ...ref, currency, amountMinor: command.amountMinor, conversion: command.conversion },
      }
      return [event, ...limitsReached(state, command, after, undefined)]
    }
    case 'ReserveApprovedSpend':
      if (reserved) return []
      return [
        {
          type: 'AgentSpendReserved',
          data: { ...ref, currency: command.currency, amountMinor: command.amountMinor, conversion: command.conversion },
        },
      ]
    case 'ReleaseSpend':
      if (!reserved || state.status !== 'open') return []
      return [
        {
          type: 'AgentSpendReleased',
          data: { ...ref, currency: state.currency, amountMinor: reserved.amountMinor, reservedAt: reserved.at, reason: command.reason },
        },
      ]
  }
}

function opened(state: AgentSpendState, event: AgentSpendEvent): OpenAgentSpend {
  if (state.status === 'open') return state
  const w = calendarWindowsAt(new Date(event.data.at))
  const { agentId, organizationId, currency } = event.data
  return {
    status: 'open',
    agentId,
    organizationId,
    currency,
    day: w.day,
    usedDay: '0',
    month: w.month,
    usedMonth: '0',
    reservations: {},
    reached: [],
    updatedAt: event.data.at,
  }
}

function withUsage(s: OpenAgentSpend, usage: WindowUsage, at: string): OpenAgentSpend {
  // Reservations of past months count in no window any more: only this month's are kept (a bounded state).
  const reservations = Object.fromEntries(Object.entries(s.reservations).filter(([, r]) => r.at.slice(0, 7) === usage.month))
  const reached = s.reached.filter((key) => key === `PER_DAY:${usage.day}` || key === `PER_MONTH:${usage.month}`)
  return {
    ...s,
    day: usage.day,
    usedDay: usage.usedDay.toString(),
    month: usage.month,
    usedMonth: usage.usedMonth.toString(),
    reservations,
    reached,
    updatedAt: at,
  }
}

function evolve(state: AgentSpendState, event: AgentSpendEvent): AgentSpendState {
  const s = opened(state, event)
  const at = new Date(event.data.at)
  switch (event.type) {
    case 'AgentSpendReserved': {
      const next = withUsage(s, withSpend(usageOf(s), BigInt(event.data.amountMinor), at, at), event.data.at)
      return {
        ...next,
        reservations: { ...next.reservations, [event.data.transferId]: { amountMinor: event.data.amountMinor, at: event.data.at } },
      }
    }
    case 'AgentSpendReleased': {
      const reservation = s.reservations[event.data.transferId]
      if (!reservation) return { ...s, updatedAt: event.data.at }
      const next = withUsage(s, withSpend(usageOf(s), -BigInt(reservation.amountMinor), new Date(reservation.at), at), event.data.at)
      const { [event.data.transferId]: _released, ...rest } = next.reservations
      return { ...next, reservations: rest }
    }
    case 'AgentSpendDenied':
      return withUsage(s, usageAt(usageOf(s), at), event.data.at)
    case 'AgentLimitReached': {
      const next = withUsage(s, usageAt(usageOf(s), at), event.data.at)
      return { ...next, reached: [...next.reached, `${event.data.window}:${event.data.windowKey}`] }
    }
  }
}

export const agentSpendDecider: Decider<AgentSpendState, AgentSpendCommand, AgentSpendEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
}
