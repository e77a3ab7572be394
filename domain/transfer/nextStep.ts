// What the sandbox rails engine does next for a transfer, and on which rail's clock: the timer the
// scheduler keeps for it. Nothing while it waits for its deposit, an operator (review), the credit of
// its balance destination (the transfer workflow applies it), or is final;
// an untracked SWIFT payout waits 24 hours for the assumed settlement instead.
import { SWIFT_LIMITS } from '../rails/index.js'
import { awaitingBalanceCredit } from './moneyInTransit.js'
import type { OpenTransferState } from './state.js'

export type NextStep = { kind: 'advance'; rail: string; dueAt: Date } | { kind: 'assume_swift_settlement'; legIndex: number; dueAt: Date }

export function nextStep(s: OpenTransferState, stepDelayMs: (rail: string) => number): NextStep | null {
  // An FX trade's transfer view moves with its trade (fxTradeMirror.ts), on the trade's own timers.
  if (s.created.fxTrade === true) return null
  const trigger = s.created.sandboxTrigger
  const after = (rail: string): NextStep => ({ kind: 'advance', rail, dueAt: new Date(Date.parse(s.updatedAt) + stepDelayMs(rail)) })
  if (s.status === 'PENDING') return trigger === 'FAIL_BEFORE_FUNDING' ? after(s.created.source.paymentRail) : null
  // A payout's rail may send it back; a transfer into a balance account is never returned by a rail.
  if (s.status === 'COMPLETED')
    return (trigger === 'RETURN_AFTER_COMPLETION' || trigger === 'REVERSAL_AFTER_COMPLETION') && s.created.destination.kind !== 'BALANCE'
      ? after(s.created.destination.paymentRail)
      : null
  if (s.status !== 'PROCESSING') return null
  // The balance credit completes when the transfer workflow applies it.
  if (awaitingBalanceCredit(s)) return null
  const leg = s.legs[s.currentLegIndex]
  if (!leg) return null
  const rail = leg.type === 'CONVERT' ? 'BALANCE' : leg.outputRail
  if (trigger === 'SWIFT_UNTRACKED' && leg.type === 'PAYOUT_FIAT' && rail === 'SWIFT' && leg.status === 'IN_PROGRESS')
    return {
      kind: 'assume_swift_settlement',
      legIndex: s.currentLegIndex,
      dueAt: new Date(Date.parse(leg.startedAt!) + SWIFT_LIMITS.untrackedAutoCompleteAfterMs),
    }
  return after(rail)
}
