// What is on its way to an account (domain/account/incomingMoney.ts), from the transfers and credit
// line and invoices read models: three index lookups (transfers_incoming, migration 0023; the facility's row;
// invoices_balance_account, migration 0029).
import { type Kysely, sql } from 'kysely'
import { INCOMING_STATUSES, type IncomingMoneyReads } from '../../domain/account/incomingMoney.js'
import type { ReadDatabase } from '../../projections/schema.js'

/** Counting stops here: one is enough to refuse a close; the message says how many, up to this. */
export const INCOMING_MONEY_LIMITS = { maxCounted: 100 } as const

export const incomingMoneyReads = (db: Kysely<ReadDatabase>): IncomingMoneyReads => ({
  async incomingTo(organizationId, accountId) {
    const [transfers, facility, invoices] = await Promise.all([
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('transfers')
            .select('id')
            .where('destination_account_id', '=', accountId)
            .where('organization_id', '=', organizationId)
            .where('status', 'in', INCOMING_STATUSES)
            .limit(INCOMING_MONEY_LIMITS.maxCounted)
            .as('incoming'),
        )
        .select(sql<string>`count(*)`.as('count'))
        .executeTakeFirstOrThrow(),
      db.selectFrom('liquidity_facilities').select('payout_treasury_id').where('organization_id', '=', organizationId).executeTakeFirst(),
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('invoices')
            .select('id')
            .where('balance_account_id', '=', accountId)
            .where('organization_id', '=', organizationId)
            .where('status', '=', 'OPEN')
            .limit(INCOMING_MONEY_LIMITS.maxCounted)
            .as('open'),
        )
        .select(sql<string>`count(*)`.as('count'))
        .executeTakeFirstOrThrow(),
    ])
    return {
      transfersInFlight: Number(transfers.count),
      payoutTreasury: facility?.payout_treasury_id === accountId,
      openInvoices: Number(invoices.count),
    }
  },
})
