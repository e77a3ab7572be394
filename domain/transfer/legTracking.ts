// Which tracking ids a leg carries, by its rail: a Fedwire payment its IMAD and OMAD, an ACH entry
// its trace number, SWIFT and SEPA the UETR, a chain its transaction hash (and the developer
// fee's own transfer its fee hash). The ids themselves are drawn outside the decider (the command
// brings a fresh set, domain/rails/trackingIds.ts); this picks the ones that apply.
import type { Tracking } from './events.js'
import type { LegState } from './state.js'

const WIRE_RAILS = new Set(['WIRE', 'FEDWIRE'])
const ACH_RAILS = new Set(['ACH', 'ACH_SAME_DAY'])
const UETR_RAILS = new Set(['SWIFT', 'SEPA', 'SEPA_INSTANT', 'RTP', 'FED_NOW'])

export type TrackingPool = {
  uetr: string
  imad: string
  omad: string
  achTraceNumber: string
  /** By chain: a transaction hash in that chain's format, and one for the developer fee's own transfer. */
  txHash: Readonly<Record<string, string>>
  feeTxHash: Readonly<Record<string, string>>
}

export function legTracking(leg: LegState, pool: TrackingPool, options: { untrackedSwift: boolean; chargesFee: boolean }): Tracking {
  // A leg's money moves on its output rail (a deposit's on its input: the two are the same there).
  const rail = leg.type === 'CONVERT' ? 'BALANCE' : leg.outputRail
  if (WIRE_RAILS.has(rail)) return { imad: pool.imad, omad: pool.omad }
  if (ACH_RAILS.has(rail)) return { achTraceNumber: pool.achTraceNumber }
  if (rail === 'SWIFT') return options.untrackedSwift ? {} : { uetr: pool.uetr }
  if (UETR_RAILS.has(rail)) return { uetr: pool.uetr }
  const chain = chainOfLeg(leg)
  if (chain === null) return {}
  const txHash = pool.txHash[chain] ?? null
  return options.chargesFee && leg.type === 'PAYOUT_CRYPTO' ? { txHash, feeTxHash: pool.feeTxHash[chain] ?? null } : { txHash }
}

/** The chain a leg's hash is on (for drawing it in the right format), or null for a fiat leg. */
export const chainOfLeg = (leg: Pick<LegState, 'type' | 'outputRail'>): string | null =>
  leg.type === 'DEPOSIT_CRYPTO' || leg.type === 'PAYOUT_CRYPTO' ? leg.outputRail : null
