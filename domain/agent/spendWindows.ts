// An agent's spending windows (spec: Agent limits): per transaction, per calendar day and per
// calendar month, UTC. A window starts at 00:00 UTC of its day or of the 1st of its month and resets
// at the next one (`resetsAt`). What a window has used is the sum of the reservations made in it;
// a new amount fits when used + amount stays within the limit. Pure: the agent's decider and the
// limits read both use it.
import { exponentOf, formatDecimal } from '../shared/money/index.js'
import type { AgentLimits } from './agentBody.js'

export const SPEND_WINDOWS = ['PER_TRANSACTION', 'PER_DAY', 'PER_MONTH'] as const
export type SpendWindow = (typeof SPEND_WINDOWS)[number]

/** The calendar windows an instant falls in: their keys (what usage is counted under) and when each resets. */
export type CalendarWindows = { day: string; dayResetsAt: string; month: string; monthResetsAt: string }

export function calendarWindowsAt(at: Date): CalendarWindows {
  const y = at.getUTCFullYear()
  const m = at.getUTCMonth()
  const d = at.getUTCDate()
  return {
    day: new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10),
    dayResetsAt: new Date(Date.UTC(y, m, d + 1)).toISOString(),
    month: new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7),
    monthResetsAt: new Date(Date.UTC(y, m + 1, 1)).toISOString(),
  }
}

/** What the current windows have used, in minor units of the limits' currency. */
export type WindowUsage = { day: string; usedDay: bigint; month: string; usedMonth: bigint }

/** Usage as it stands at `at`: a window that has reset counts from zero. */
export function usageAt(usage: WindowUsage | null, at: Date): WindowUsage {
  const w = calendarWindowsAt(at)
  return {
    day: w.day,
    usedDay: usage && usage.day === w.day ? usage.usedDay : 0n,
    month: w.month,
    usedMonth: usage && usage.month === w.month ? usage.usedMonth : 0n,
  }
}

/** The first window an amount does not fit, with what the spec's denial body names (minor units). */
export type SpendDenial = {
  window: SpendWindow
  limitMinor: bigint
  /** Absent for a per-transaction denial (spec: per-transfer denials omit used and remaining). */
  usedMinor: bigint | null
  remainingMinor: bigint | null
  attemptedMinor: bigint
  resetsAt: string | null
}

/** Checks the windows in order (transaction, day, month); undefined when the amount fits them all. */
export function spendDenial(limits: AgentLimits, usage: WindowUsage | null, amountMinor: bigint, at: Date): SpendDenial | undefined {
  const perTransaction = BigInt(limits.perTransaction)
  if (amountMinor > perTransaction)
    return {
      window: 'PER_TRANSACTION',
      limitMinor: perTransaction,
      usedMinor: null,
      remainingMinor: null,
      attemptedMinor: amountMinor,
      resetsAt: null,
    }
  const now = usageAt(usage, at)
  const w = calendarWindowsAt(at)
  const windows = [
    { window: 'PER_DAY' as const, limit: BigInt(limits.perDay), used: now.usedDay, resetsAt: w.dayResetsAt },
    { window: 'PER_MONTH' as const, limit: BigInt(limits.perMonth), used: now.usedMonth, resetsAt: w.monthResetsAt },
  ]
  for (const { window, limit, used, resetsAt } of windows) {
    if (used + amountMinor > limit) {
      const remaining = limit > used ? limit - used : 0n
      return { window, limitMinor: limit, usedMinor: used, remainingMinor: remaining, attemptedMinor: amountMinor, resetsAt }
    }
  }
  return undefined
}

/** Usage after a reservation (or, negative, a release) made at `at`, counted in the window it was made in. */
export function withSpend(usage: WindowUsage | null, amountMinor: bigint, madeAt: Date, at: Date): WindowUsage {
  const now = usageAt(usage, at)
  const made = calendarWindowsAt(madeAt)
  const clamp = (n: bigint) => (n < 0n ? 0n : n)
  return {
    ...now,
    usedDay: made.day === now.day ? clamp(now.usedDay + amountMinor) : now.usedDay,
    usedMonth: made.month === now.month ? clamp(now.usedMonth + amountMinor) : now.usedMonth,
  }
}

/** The spec's denial body (amounts as decimals of the limits' currency); a per-transaction denial omits used and remaining. */
export function denialBody(currency: string, denial: SpendDenial) {
  const exponent = exponentOf(currency) ?? 0
  const decimal = (minor: bigint) => formatDecimal(minor, exponent)
  const label = { PER_TRANSACTION: 'per-transaction', PER_DAY: 'daily', PER_MONTH: 'monthly' }[denial.window]
  return {
    code: `${denial.window.toLowerCase()}_limit_exceeded`,
    message:
      `The transfer of ${decimal(denial.attemptedMinor)} ${currency} is over the agent's ${label} limit of ` +
      `${decimal(denial.limitMinor)} ${currency}`,
    window: denial.window,
    limit: decimal(denial.limitMinor),
    ...(denial.usedMinor === null ? {} : { used: decimal(denial.usedMinor) }),
    ...(denial.remainingMinor === null ? {} : { remaining: decimal(denial.remainingMinor) }),
    attemptedAmount: decimal(denial.attemptedMinor),
    currency,
    ...(denial.resetsAt === null ? {} : { resetsAt: denial.resetsAt }),
  }
}

/** The hint of a limit denial: what the agent can do next (the create's 403 and the MCP check give the same advice). */
export function denialHint(denial: { window: string; resetsAt?: string | null; remaining?: string | null; currency: string }): string {
  return denial.window === 'PER_TRANSACTION'
    ? 'Send a smaller amount, or ask the agent’s owner to raise perTransaction'
    : `Wait until ${denial.resetsAt ?? 'the window resets'}, send at most ${denial.remaining ?? '0'} ${denial.currency}, ` +
        'or ask the owner to raise the limit'
}
