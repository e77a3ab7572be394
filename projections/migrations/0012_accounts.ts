// Accounts of every kind (issue 12): one row per account with the columns the account lists filter
// on, and the account as the API shows it (masked: no full account number ever reaches this table).
// Balances live in their own tables (the funds events change them, not this row).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('counterparty_id', 'text')
    .addColumn('sweep_target_account_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('holds_balance', 'boolean', (c) => c.notNull())
    .addColumn('balance_source_eligible', 'boolean', (c) => c.notNull())
    .addColumn('address_type', 'text')
    .addColumn('currency_codes', sql`text[]`, (c) => c.notNull())
    .addColumn('payment_rails', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resource', 'jsonb', (c) => c.notNull())
    .execute()
  // The default list: an organization's accounts in id order (ids sort by creation).
  await db.schema.createIndex('accounts_organization_id').on('accounts').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('accounts_customer_id').on('accounts').columns(['organization_id', 'customer_id', 'id']).execute()
  await db.schema
    .createIndex('accounts_counterparty_id')
    .on('accounts')
    .columns(['organization_id', 'counterparty_id'])
    .where(sql.ref('counterparty_id'), 'is not', null)
    .execute()
}
