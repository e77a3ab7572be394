// The liquidity facility's reads port (domain/liquidity-facility/facilityReads.ts) on the read
// model: the facility as GET shows it, and the treasuries it may pay draws to.
import type { Kysely } from 'kysely'
import type { LiquidityFacilityReads } from '../../domain/liquidity-facility/facilityReads.js'
import { toFacilityResource } from '../../domain/liquidity-facility/resource.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { payoutTreasuries } from './payoutTreasuries.js'
import { findFacility } from './queries.js'

export function liquidityFacilityReads(db: Kysely<ReadDatabase>): LiquidityFacilityReads {
  return {
    async payoutTreasuries(organizationId) {
      const facility = await findFacility(db, organizationId)
      return payoutTreasuries(db, organizationId, facility.currency)
    },
    async facility(organizationId, asOf) {
      const facility = await findFacility(db, organizationId)
      return toFacilityResource(facility, await payoutTreasuries(db, organizationId, facility.currency), asOf)
    },
  }
}
