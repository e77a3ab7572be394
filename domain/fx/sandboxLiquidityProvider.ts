// The sandbox liquidity provider: mid rates from the fixed reference table (domain/rates), the
// environment's small corridor limits, and per organization the behaviour its tests ask for
// (unavailable, or a corridor capacity below the minimum), so every FX error code can be produced
// on purpose. Capacity is what quotes left of it (capacity.ts); quoting needs the corridor minimum
// at least. Deterministic: the same pair gives the same rate at any time.
import { REFERENCE_RATE_PROVIDER, referenceRate } from '../rates/referenceRates.js'
import type { Environment } from '../shared/environment.js'
import { type CorridorUse, capacityCentsOf, corridorOf, usedAt } from '../fx-settings/capacity.js'
import type { SandboxProvider } from '../fx-settings/settings.js'
import { CORRIDOR_LIMITS_USD, corridorLimits } from './corridorLimits.js'
import { fxCapacityExhausted, fxTemporarilyUnavailable } from './errors.js'
import type { LiquidityProvider } from './liquidityProvider.js'
import { assertInvariant } from '../errors.js'

export function sandboxLiquidityProvider(
  environment: Environment,
  behaviour: SandboxProvider,
  capacityUse: Readonly<Record<string, CorridorUse>> = {},
): LiquidityProvider {
  const capacity = capacityCentsOf(behaviour.capacityUsd)
  return {
    midRate(pair, at) {
      if (!behaviour.available) throw fxTemporarilyUnavailable()
      const remaining = capacity - usedAt(capacityUse[corridorOf(pair)], capacity, at.toISOString())
      if (remaining < CORRIDOR_LIMITS_USD[environment].min * 100n) throw fxCapacityExhausted()
      const mid = referenceRate(pair.source.currency, pair.destination.currency)
      // checkPair admits only currencies of the table.
      assertInvariant(mid !== undefined, `no reference rate for ${pair.source.currency}/${pair.destination.currency}`)
      return { mid, provider: REFERENCE_RATE_PROVIDER, asOf: at.toISOString() }
    },
    limits: (pair) => corridorLimits(pair.source.currency, environment),
  }
}
