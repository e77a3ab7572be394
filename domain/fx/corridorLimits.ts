// Per-corridor amount limits, set in US dollars and shown in the source currency's minor units
// (spec: environment-specific; sandbox uses small test limits). A corridor's minimum rounds up and
// its maximum down, so both are amounts the corridor really accepts.
import { referenceRate } from '../rates/referenceRates.js'
import type { Environment } from '../shared/environment.js'
import { divideRounded, requireExponent } from '../shared/money/index.js'

/** Whole US dollars per quote, by environment. */
export const CORRIDOR_LIMITS_USD: Readonly<Record<Environment, { min: bigint; max: bigint }>> = {
  sandbox: { min: 1n, max: 10_000n },
  production: { min: 10n, max: 1_000_000n },
}

export type CorridorLimits = { sourceCurrency: string; minMinor: bigint; maxMinor: bigint }

/** Whole dollars as minor units of `currency`, rounded as asked (the table rate, exact). */
export function usdToMinor(usd: bigint, currency: string, rounding: 'CEILING' | 'FLOOR'): bigint {
  const rate = referenceRate('USD', currency)
  if (!rate) throw new RangeError(`No reference rate for ${currency}`)
  return divideRounded(usd * rate.num * 10n ** BigInt(requireExponent(currency)), rate.den, rounding)
}

/** Minor units of `currency` as US cents, rounded down: what the sandbox provider's capacity counts. */
export function minorToUsdCents(minor: bigint, currency: string): bigint {
  const rate = referenceRate(currency, 'USD')
  if (!rate) throw new RangeError(`No reference rate for ${currency}`)
  return divideRounded(minor * rate.num * 100n, rate.den * 10n ** BigInt(requireExponent(currency)), 'FLOOR')
}

/** The limits as answers show them: minor units as strings (the pair list, the quote refusals). */
export const limitsWire = (limits: CorridorLimits) => ({
  sourceCurrency: limits.sourceCurrency,
  min: limits.minMinor.toString(),
  max: limits.maxMinor.toString(),
})

export function corridorLimits(sourceCurrency: string, environment: Environment): CorridorLimits {
  const usd = CORRIDOR_LIMITS_USD[environment]
  return {
    sourceCurrency,
    minMinor: usdToMinor(usd.min, sourceCurrency, 'CEILING'),
    maxMinor: usdToMinor(usd.max, sourceCurrency, 'FLOOR'),
  }
}
