// How a repayment is applied: to open draws oldest first, each draw's fee due (accrued at the
// repayment's time, less what was paid) before its principal. A draw whose principal is paid in
// full is closed; its fee due is then paid too, since fees come first. Pure.
import { accruedFee } from './fee.js'
import type { RepaymentAllocation } from './events.js'
import { type OpenDraw, principalOutstanding } from './state.js'

/** What a draw owes at `at`: its fee due and its principal outstanding. */
export function owedOn(draw: OpenDraw, at: string): { feeDueMinor: bigint; principalMinor: bigint } {
  const fee = accruedFee(draw, at) - draw.feePaidMinor
  // A repayment decided at an earlier instant than the last (clocks of two processes) owes no negative fee.
  return { feeDueMinor: fee > 0n ? fee : 0n, principalMinor: principalOutstanding(draw) }
}

/** Everything the open draws owe at `at`. */
export function totalOwed(draws: readonly OpenDraw[], at: string): bigint {
  return draws.reduce((sum, d) => {
    const owed = owedOn(d, at)
    return sum + owed.feeDueMinor + owed.principalMinor
  }, 0n)
}

/** Splits `amountMinor` (at most totalOwed) over the draws, oldest first, fee before principal. */
export function allocateRepayment(draws: readonly OpenDraw[], amountMinor: bigint, at: string): RepaymentAllocation[] {
  let left = amountMinor
  const allocations: RepaymentAllocation[] = []
  for (const draw of draws) {
    if (left === 0n) break
    const owed = owedOn(draw, at)
    const fee = left < owed.feeDueMinor ? left : owed.feeDueMinor
    left -= fee
    const principal = left < owed.principalMinor ? left : owed.principalMinor
    left -= principal
    allocations.push({
      drawId: draw.drawId,
      feeMinor: fee.toString(),
      principalMinor: principal.toString(),
      closesDraw: principal === owed.principalMinor,
    })
  }
  if (left !== 0n) throw new RangeError('a repayment larger than what the draws owe')
  return allocations
}
