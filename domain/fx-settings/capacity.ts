// The sandbox liquidity provider's capacity per corridor (a currency pair) for one organization:
// quotes consume it in US cents, and it recovers linearly, all of it in CAPACITY_RECOVERY_MS. Kept
// on the organization's FX settings stream, so concurrent quotes are decided in turn and never
// consume more than there is.
import type { FxPair } from '../fx/pair.js'

export const CAPACITY_RECOVERY_MS = 3_600_000

/** What a corridor had used at `at` (US cents, as a string). */
export type CorridorUse = { usedCents: string; at: string }

export const corridorOf = (pair: FxPair): string => `${pair.source.currency}/${pair.destination.currency}`

/** The cents still in use at `now`, after the recovery since the last reservation. */
export function usedAt(use: CorridorUse | undefined, capacityCents: bigint, now: string): bigint {
  if (use === undefined) return 0n
  const elapsed = BigInt(Math.max(0, Date.parse(now) - Date.parse(use.at)))
  const left = BigInt(use.usedCents) - (capacityCents * elapsed) / BigInt(CAPACITY_RECOVERY_MS)
  return left > 0n ? left : 0n
}

export const capacityCentsOf = (capacityUsd: string): bigint => BigInt(capacityUsd) * 100n
