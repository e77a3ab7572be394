// The payee's balance account in an invoice's currency (domain/invoice/payee.ts's port), from the accounts
// read model: the customer's own, ACTIVE, holding the currency, the oldest first.
import { type Kysely, sql } from 'kysely'
import type { PayeeAccountReads } from '../../domain/invoice/payee.js'
import type { ReadDatabase } from '../../projections/schema.js'

/** The kinds that hold a customer's money: a USD balance account (acc_) or a stablecoin one (inw_, INFINITE_WALLET). */
const BALANCE_TYPES = ['INFINITE_BANK', 'INFINITE_WALLET']

export const payeeAccountReads = (db: Kysely<ReadDatabase>): PayeeAccountReads => ({
  async balanceAccountOf(organizationId, customerId, currency) {
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('customer_id', '=', customerId)
      .where('type', 'in', BALANCE_TYPES)
      .where('status', '=', 'ACTIVE')
      .where('holds_balance', '=', true)
      .where(sql<boolean>`${currency} = any(currency_codes)`)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
    return account?.id ?? null
  },
})
