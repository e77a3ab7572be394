// What the facility's write routes read besides its stream: the port the server wires to the read
// model (read-api/liquidity-facility/reads.ts). The treasuries are the facts a draw or a new payout
// treasury is checked against; the facility record is what PATCH answers (the same JSON GET does).
import type { LiquidityFacilityResource, PayoutTreasury } from './resource.js'

export type LiquidityFacilityReads = {
  /** The organization's payout treasuries now, in its facility's currency. */
  payoutTreasuries(organizationId: string): Promise<PayoutTreasury[]>
  /** The facility record at `asOf` (a zero limit for an organization never configured). */
  facility(organizationId: string, asOf: string): Promise<LiquidityFacilityResource>
}
