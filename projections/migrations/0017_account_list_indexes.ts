// What the account lists need (read-api/accounts; plans and timings on 100 000 accounts in
// docs/explain-accounts.md):
// - a covering index on (organization_id, id) with every filter column included: the default
//   order, id prefixes, deep offsets, cursors and any filter combination read the index only (the
//   heap only for the page's own rows); it replaces 0012's plain (organization_id, id) index;
// - (organization_id, type, status, id) and (organization_id, status, id): the type and status
//   filters page in id order and count only the accounts they match;
// - no GIN on currency_codes or payment_rails: measured, it answered a currency no account holds at
//   once, but the planner took it for a 10% currency at 89 ms, where the covering index's
//   index-only pass takes 36 to 50 ms; the overlap filters use the covering index;
// - the virtual accounts sweeping to an account (partial: most accounts sweep nowhere);
// - account_counts: each organization's number of accounts, kept by the account counts projector,
//   so the unfiltered list's total is one row, not a count of every account.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // Kysely's index builder has no INCLUDE.
  await sql`CREATE INDEX accounts_list ON accounts (organization_id, id) INCLUDE (type, status, provider, holds_balance,
    balance_source_eligible, address_type, currency_codes, payment_rails)`.execute(db)
  await db.schema.dropIndex('accounts_organization_id').execute()
  await db.schema.createIndex('accounts_type_status').on('accounts').columns(['organization_id', 'type', 'status', 'id']).execute()
  await db.schema.createIndex('accounts_status').on('accounts').columns(['organization_id', 'status', 'id']).execute()
  await db.schema
    .createIndex('accounts_sweep_target')
    .on('accounts')
    .columns(['organization_id', 'sweep_target_account_id', 'id'])
    .where(sql.ref('sweep_target_account_id'), 'is not', null)
    .execute()

  await db.schema
    .createTable('account_counts')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('accounts', 'bigint', (c) => c.notNull().check(sql`accounts >= 0`))
    .execute()
  await sql`INSERT INTO account_counts (organization_id, accounts)
    SELECT organization_id, count(*) FROM accounts GROUP BY organization_id`.execute(db)
}
