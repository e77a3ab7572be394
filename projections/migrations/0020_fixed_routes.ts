// Fixed routes (issue 14): one row per route (a VIRTUAL_BANK or DEPOSIT_WALLET account; other
// accounts have none), the columns its reads filter on and the resource without its expanded sweep
// target (reads join the target from the accounts read model). The resource holds the route's full
// deposit coordinates (account number, IBAN, beneficiary): those leaves are sealed with the
// customer's data key (projections/sealedColumns.ts, sealedFixedRouteResource).
// A customer's list is newest first within one organization: (organization_id, customer_id,
// created_at DESC, id DESC) serves the page (a backwards scan that stops after it) and its count.
// Ids do not sort by creation across prefixes (vba_ and inw_), hence created_at first.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fixed_routes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('sweep_target_account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resource', 'jsonb', (c) => c.notNull())
    .execute()
  // Kysely's index builder has no per-column direction.
  await sql`CREATE INDEX fixed_routes_customer ON fixed_routes (organization_id, customer_id, created_at DESC, id DESC)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fixed_routes').execute()
}
