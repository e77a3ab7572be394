// A customer's balance accounts able to fund a transfer in one currency (fund-from-balance), from
// the accounts read model: ACTIVE, balanceSourceEligible, holding the currency; oldest first.
import { type Kysely, sql } from 'kysely'
import type { TransferFundingReads } from '../../domain/transfer/fundingReads.js'
import type { ReadDatabase } from '../../projections/schema.js'

export const BALANCE_SOURCE_LIMITS = { maxAccounts: 10 } as const

export const transferFundingReads = (db: Kysely<ReadDatabase>): TransferFundingReads => ({
  async balanceSources(organizationId, customerId, currency) {
    const rows = await db
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('customer_id', '=', customerId)
      .where('status', '=', 'ACTIVE')
      .where('balance_source_eligible', '=', true)
      .where(sql<boolean>`${currency} = ANY(currency_codes)`)
      .orderBy('id')
      .limit(BALANCE_SOURCE_LIMITS.maxAccounts)
      .execute()
    return rows.map((r) => r.id)
  },
})
