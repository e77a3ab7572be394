// The liquidity provider port: the upstream that prices and fills conversions. One adapter today,
// the sandbox's (sandboxLiquidityProvider.ts); a production provider implements the same port.
import type { Rational } from '../rates/referenceRates.js'
import type { CorridorLimits } from './corridorLimits.js'
import type { FxPair } from './pair.js'

export type MidRate = {
  /** Destination major units per source major unit, exact. */
  mid: Rational
  /** Who published the mid-market rate (the transfer's referenceProvider). */
  provider: string
  /** When the provider's rate was taken. */
  asOf: string
}

export type LiquidityProvider = {
  /** The mid-market rate now; throws 422 fx_quote_temporarily_unavailable or fx_quote_capacity_exhausted. */
  midRate(pair: FxPair, at: Date): MidRate
  /** The corridor's amount limits, in minor units of the pair's source currency. */
  limits(pair: FxPair): CorridorLimits
}
