// The liquidity facility's read model (issue 12): one row per organization's facility, its draws
// and its repayments. Amounts are numeric minor units (read back as strings, never JS numbers).
// The lists page by id within an organization, and the draw list filters by status.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('liquidity_facilities')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('configured', 'boolean', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('credit_limit', 'numeric(40, 0)', (c) => c.notNull().check(sql`credit_limit >= 0`))
    .addColumn('maximum_draw', 'numeric(40, 0)', (c) => c.notNull().check(sql`maximum_draw >= 0`))
    .addColumn('fee_bps_per_hour', 'text', (c) => c.notNull())
    .addColumn('fee_cap_hours', 'integer', (c) => c.notNull())
    .addColumn('payout_treasury_id', 'text')
    .addColumn('borrowed', 'numeric(40, 0)', (c) => c.notNull().check(sql`borrowed >= 0`))
    .addColumn('open_draws', 'integer', (c) => c.notNull().check(sql`open_draws >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('liquidity_facilities_borrowed_within_limit', sql`borrowed <= credit_limit`)
    .execute()

  await db.schema
    .createTable('liquidity_draws')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(40, 0)', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('principal_repaid', 'numeric(40, 0)', (c) => c.notNull())
    .addColumn('fee_paid', 'numeric(40, 0)', (c) => c.notNull())
    .addColumn('fee_bps_per_hour', 'text', (c) => c.notNull())
    .addColumn('fee_cap_hours', 'integer', (c) => c.notNull())
    .addColumn('payout_treasury_id', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('drawn_at', 'timestamptz', (c) => c.notNull())
    .addColumn('repaid_at', 'timestamptz')
    .addCheckConstraint('liquidity_draws_repaid_within_amount', sql`principal_repaid >= 0 AND principal_repaid <= amount`)
    .execute()
  await db.schema.createIndex('liquidity_draws_org_id').on('liquidity_draws').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('liquidity_draws_org_status').on('liquidity_draws').columns(['organization_id', 'status', 'id']).execute()

  await db.schema
    .createTable('liquidity_repayments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric(40, 0)', (c) => c.notNull())
    .addColumn('allocations', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('liquidity_repayments_org_id').on('liquidity_repayments').columns(['organization_id', 'id']).execute()
}
