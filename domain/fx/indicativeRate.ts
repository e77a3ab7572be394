// The organization's rate on a pair: the provider's mid-market rate less the spread, both ways.
//   rate        = mid × (10 000 − spreadBps) / 10 000   destination major units per source major unit
//   inverseRate = 1 / rate                               source major units per destination major unit
// Exact rationals throughout; decimals only at the edge, rounded half up at FX_RATE_PLACES.
import { type Rational, rationalToDecimal } from '../rates/referenceRates.js'

export const FX_RATE_PLACES = 12

/** A spread is whole basis points, 0 to 1 000 (10%). */
export const SPREAD_LIMITS = { minBps: 0, maxBps: 1000 } as const

export function applySpread(mid: Rational, spreadBps: number): Rational {
  if (!Number.isInteger(spreadBps) || spreadBps < SPREAD_LIMITS.minBps || spreadBps > SPREAD_LIMITS.maxBps)
    throw new RangeError(`spreadBps ${spreadBps} is outside ${SPREAD_LIMITS.minBps}..${SPREAD_LIMITS.maxBps}`)
  return { num: mid.num * BigInt(10_000 - spreadBps), den: mid.den * 10_000n }
}

export const inverse = (r: Rational): Rational => ({ num: r.den, den: r.num })

export type RateFigures = { rate: string; inverseRate: string; referenceRate: string; inverseReferenceRate: string }

/** The four decimals a rate answer shows. */
export function rateFigures(mid: Rational, spreadBps: number): RateFigures {
  const offered = applySpread(mid, spreadBps)
  return {
    rate: rationalToDecimal(offered, FX_RATE_PLACES),
    inverseRate: rationalToDecimal(inverse(offered), FX_RATE_PLACES),
    referenceRate: rationalToDecimal(mid, FX_RATE_PLACES),
    inverseReferenceRate: rationalToDecimal(inverse(mid), FX_RATE_PLACES),
  }
}
