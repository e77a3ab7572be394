// Which tracking ids a leg carries: the ones its rail carries (domain/rails' catalog: a Fedwire
// payment its IMAD and OMAD, an ACH entry its trace number, SWIFT and SEPA the UETR), a chain leg
// its transaction hash (and the developer fee's own transfer its fee hash). The ids themselves are
// drawn outside the decider (the command brings a fresh set); this picks the ones that apply.
import { RAIL_CATALOG, isSandboxRail } from '../rails/index.js'
import type { Tracking } from './events.js'
import type { LegState } from './state.js'

export type TrackingPool = {
  uetr: string
  imad: string
  omad: string
  achTraceNumber: string
  /** By chain: a transaction hash in that chain's format, and one for the developer fee's own transfer. */
  txHash: Readonly<Record<string, string>>
  feeTxHash: Readonly<Record<string, string>>
}

/** The chain a leg's hash is on, or null for a fiat leg. */
export const chainOfLeg = (leg: Pick<LegState, 'type' | 'outputRail'>): string | null =>
  leg.type === 'DEPOSIT_CRYPTO' || leg.type === 'PAYOUT_CRYPTO' ? leg.outputRail : null

export function legTracking(
  leg: Pick<LegState, 'type' | 'outputRail'>,
  pool: TrackingPool,
  options: { untrackedSwift: boolean; chargesFee: boolean },
): Tracking {
  const chain = chainOfLeg(leg)
  if (chain !== null) {
    const txHash = pool.txHash[chain] ?? null
    return options.chargesFee && leg.type === 'PAYOUT_CRYPTO' ? { txHash, feeTxHash: pool.feeTxHash[chain] ?? null } : { txHash }
  }
  // A conversion happens inside the service: no rail, no ids.
  const rail = leg.type === 'CONVERT' ? 'BALANCE' : leg.outputRail
  if (!isSandboxRail(rail) || (rail === 'SWIFT' && options.untrackedSwift)) return {}
  const tracking: Tracking = {}
  for (const kind of RAIL_CATALOG[rail].trackingIds) if (kind !== 'txHash') tracking[kind] = pool[kind]
  return tracking
}
