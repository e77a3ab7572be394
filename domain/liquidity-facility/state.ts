// The liquidity facility's state: the credit line's terms, its payout treasury, and its open draws
// oldest first. Borrowed is the principal still owed on open draws; it is never negative and never
// above the credit limit (asserted on every event: evolve.ts).
import type { FeeTerms } from './fee.js'
import type { FacilityCurrency } from './events.js'

export type OpenDraw = {
  drawId: string
  principalMinor: bigint
  principalRepaidMinor: bigint
  feePaidMinor: bigint
  terms: FeeTerms
  payoutTreasuryId: string
  reference: string | null
  drawnAt: string
}

export type FacilityState = {
  /** Null until the facility's first event. */
  facilityId: string | null
  configured: boolean
  currency: FacilityCurrency
  network: 'SOLANA'
  creditLimitMinor: bigint
  maximumDrawMinor: bigint
  terms: FeeTerms
  payoutTreasuryId: string | null
  borrowedMinor: bigint
  openDraws: readonly OpenDraw[]
}

/** An organization that was never configured: a facility with a zero limit, lending USDC on Solana. */
export const unconfiguredFacility = (): FacilityState => ({
  facilityId: null,
  configured: false,
  currency: 'USDC',
  network: 'SOLANA',
  creditLimitMinor: 0n,
  maximumDrawMinor: 0n,
  terms: { fundingFeeBpsPerHour: '0', feeCapHours: 1 },
  payoutTreasuryId: null,
  borrowedMinor: 0n,
  openDraws: [],
})

export const remainingCredit = (s: FacilityState): bigint => s.creditLimitMinor - s.borrowedMinor
export const principalOutstanding = (d: OpenDraw): bigint => d.principalMinor - d.principalRepaidMinor

/** The facility id of an organization: one facility each, keyed by the organization id's random part. */
export function facilityIdOf(organizationId: string): string {
  if (!organizationId.startsWith('org_')) throw new RangeError(`not an organization id: ${organizationId.slice(0, 64)}`)
  return `lqf_${organizationId.slice('org_'.length)}`
}
