// The treasuries a credit line may pay draws to: the organization's own (no customer) ACTIVE
// internal wallets (inw_, INFINITE_WALLET) on Solana that hold the facility's currency, from the
// accounts read model; named by their metadata nickname, else their id. Served by the index on
// (organization_id, customer_id, id).
import { type Kysely, sql } from 'kysely'
import { LIQUIDITY_LIMITS } from '../../domain/liquidity-facility/limits.js'
import type { PayoutTreasury } from '../../domain/liquidity-facility/resource.js'
import type { ReadDatabase } from '../../projections/schema.js'

export async function payoutTreasuries(db: Kysely<ReadDatabase>, organizationId: string, currency: string): Promise<PayoutTreasury[]> {
  const rows = await db
    .selectFrom('accounts')
    .select(['id', sql<string | null>`resource->'metadata'->>'nickname'`.as('nickname')])
    .where('organization_id', '=', organizationId)
    .where('customer_id', 'is', null)
    .where('type', '=', 'INFINITE_WALLET')
    .where('address_type', '=', 'SOLANA')
    .where('status', '=', 'ACTIVE')
    .where(sql<boolean>`${currency} = ANY(currency_codes)`)
    .orderBy('id')
    .limit(LIQUIDITY_LIMITS.maxPayoutTreasuries)
    .execute()
  return rows.map((r) => ({ id: r.id, name: r.nickname ?? r.id }))
}
