// An agent transfer's amount in its limits' currency: the same amount in the same currency; in
// another, converted at the reference (mid-market) rate and rounded up, so a limit is never
// undercounted, with the rate recorded beside the reservation. No rate: no amount, and the transfer
// is denied (never let through uncounted).
import type { SpendConversion } from '../agent-spend/decider.js'
import { REFERENCE_RATE_PROVIDER, rationalToDecimal, referenceRate } from '../rates/referenceRates.js'
import { divideRounded, exponentOf } from '../shared/money/index.js'

export const SPEND_RATE_PLACES = 12

export function inLimitsCurrency(
  amount: { currency: string; amountMinor: bigint },
  limitsCurrency: string,
): { amountMinor: bigint; conversion: SpendConversion } | undefined {
  const original = { currency: amount.currency, amountMinor: amount.amountMinor.toString() }
  if (amount.currency === limitsCurrency)
    return { amountMinor: amount.amountMinor, conversion: { ...original, rate: null, rateSource: null } }
  const major = referenceRate(amount.currency, limitsCurrency)
  const from = exponentOf(amount.currency)
  const to = exponentOf(limitsCurrency)
  if (!major || from === undefined || to === undefined) return undefined
  // Limits-currency minor units per source minor unit.
  const perMinor = { num: major.num * 10n ** BigInt(to), den: major.den * 10n ** BigInt(from) }
  return {
    amountMinor: divideRounded(amount.amountMinor * perMinor.num, perMinor.den, 'UP'),
    conversion: { ...original, rate: rationalToDecimal(perMinor, SPEND_RATE_PLACES), rateSource: REFERENCE_RATE_PROVIDER },
  }
}
