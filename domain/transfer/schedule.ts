// When a transfer should settle and its next cut-off, from its payout side: a fiat rail's calendar
// and cut-offs (domain/rails/schedule.ts, in the rail's zone); a chain or a balance has no cut-off
// and settles in the sandbox's steps (a few seconds per leg).
import { type RailSchedule, isSandboxRail, railSchedule, sandboxStepDelayMs } from '../rails/index.js'
import type { RouteSide } from './route.js'

/** The rails engine's steps from funded to completed on a chain or a balance: start and complete the payout. */
const SETTLEMENT_STEPS = 2

export function scheduleOf(destination: RouteSide, now: Date): RailSchedule {
  if (destination.kind === 'FIAT_RAIL' && isSandboxRail(destination.rail))
    return railSchedule(destination.rail, now, { currency: destination.currency })
  const stepMs = destination.kind === 'CHAIN' ? sandboxStepDelayMs(destination.chain) : sandboxStepDelayMs('BALANCE')
  return {
    cutoffTimezone: null,
    nextCutoffAt: null,
    estimatedSettlementAt: new Date(now.getTime() + SETTLEMENT_STEPS * stepMs).toISOString(),
  }
}
