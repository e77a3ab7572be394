// The sandbox's screening engine for transfer drafts: its clock and its deterministic outcome. A
// draft whose source amount reads 44.44 (major units, any currency: "44.44", "44.440000") is
// REJECTED; any other, or one whose source amount or currency the body leaves to be derived later,
// is APPROVED. In production no engine runs: an operator decides (`npm run cli -- drafts approve|reject`).
import { exponentOf, formatDecimal } from '../shared/money/index.js'

export const DRAFT_SCREENING_LIMITS = {
  /** PENDING_APPROVAL to SCREENING: the sandbox queues the draft for screening, briefly. */
  startDelayMs: 2_000,
  /** SCREENING to APPROVED or REJECTED: the sandbox's screening of the payees takes this long. */
  screeningDelayMs: 5_000,
} as const

/** The source amount (display value, trailing zeros dropped) that makes the sandbox reject a draft. */
export const DRAFT_REJECT_AMOUNT = '44.44'

export type ScreeningOutcome = 'APPROVED' | 'REJECTED'

/** "44.4400" -> "44.44", "4400" -> "4400": the canonical form compared. */
const withoutTrailingZeros = (display: string) => (display.includes('.') ? display.replace(/0+$/, '').replace(/\.$/, '') : display)

/** What the sandbox's screening will decide for a draft of this source amount (minor units) and currency. */
export function sandboxScreeningOutcome(sourceAmountMinor: string | undefined, currency: string | undefined): ScreeningOutcome {
  const exponent = currency === undefined ? undefined : exponentOf(currency)
  if (sourceAmountMinor === undefined || exponent === undefined) return 'APPROVED'
  const display = withoutTrailingZeros(formatDecimal(BigInt(sourceAmountMinor), exponent))
  return display === DRAFT_REJECT_AMOUNT ? 'REJECTED' : 'APPROVED'
}
