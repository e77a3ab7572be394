// Balances (issue 12): per balance account its scope and entry count, per account and currency the
// available and committed minor units (numeric, never negative), the open holds, and the balance
// history (one entry per funds event, newest first by its per-account sequence).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_accounts')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('entry_count', 'bigint', (c) => c.notNull())
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('closed_at', 'timestamptz')
    .execute()
  // The treasury: a customer's balance accounts.
  await db.schema
    .createIndex('balance_accounts_customer')
    .on('balance_accounts')
    .columns(['organization_id', 'customer_id', 'account_id'])
    .execute()

  await db.schema
    .createTable('balances')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('available', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('committed', sql`numeric(40, 0)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('balances_pkey', ['account_id', 'currency'])
    .addCheckConstraint('balances_available_not_negative', sql`available >= 0`)
    .addCheckConstraint('balances_committed_not_negative', sql`committed >= 0`)
    .execute()

  await db.schema
    .createTable('balance_entries')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('available_change', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('committed_change', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('available_after', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('committed_after', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('cause_type', 'text', (c) => c.notNull())
    .addColumn('cause_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // The history's order, newest first: (account_id, seq DESC) is a backward scan of this key.
    .addPrimaryKeyConstraint('balance_entries_pkey', ['account_id', 'seq'])
    .execute()

  await db.schema
    .createTable('balance_holds')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('hold_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', sql`numeric(40, 0)`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('balance_holds_pkey', ['account_id', 'hold_id'])
    .addCheckConstraint('balance_holds_amount_positive', sql`amount > 0`)
    .execute()
  // The open holds list, newest first.
  await db.schema.createIndex('balance_holds_order').on('balance_holds').columns(['account_id', 'seq']).execute()
}
