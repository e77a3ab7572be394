// Fees computed exactly: basis points (integer, 1 bp = 0.01%) and percentages given as the spec's
// fraction ("0.015" is 1.5%), each rounded once, by a named mode, at the end.
import type { Money } from './money.js'
import { type RoundingMode, divideRounded } from './rounding.js'

export const FEE_LIMITS = {
  /** 100% in basis points; a fee above the amount is refused. */
  maxBps: 10_000n,
  /** Fraction digits a percentage may carry ("0.0000001" is fine, one more is not). */
  maxFractionDigits: 12,
} as const

/** amount x bps / 10 000, rounded by `mode`. */
export function feeFromBps(amount: Money, bps: bigint, mode: RoundingMode): Money {
  if (bps < 0n || bps > FEE_LIMITS.maxBps) throw new RangeError(`bps must be 0 to ${FEE_LIMITS.maxBps}`)
  return { currency: amount.currency, amountMinor: divideRounded(amount.amountMinor * bps, 10_000n, mode) }
}

const FRACTION = /^(0|1)(?:\.(\d+))?$/

/** amount x fraction (a decimal string from 0 to 1, such as "0.015"), rounded by `mode`. */
export function feeFromFraction(amount: Money, fraction: string, mode: RoundingMode): Money {
  const match = FRACTION.exec(fraction)
  const digits = match?.[2] ?? ''
  if (!match || digits.length > FEE_LIMITS.maxFractionDigits)
    throw new RangeError(`fraction must be a decimal from 0 to 1 with at most ${FEE_LIMITS.maxFractionDigits} places`)
  const numerator = BigInt(match[1]! + digits)
  const denominator = 10n ** BigInt(digits.length)
  if (numerator > denominator) throw new RangeError('fraction must not exceed 1')
  return { currency: amount.currency, amountMinor: divideRounded(amount.amountMinor * numerator, denominator, mode) }
}
