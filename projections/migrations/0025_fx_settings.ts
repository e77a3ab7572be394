// FX settings (issue 26): one row per organization that configured FX (the others read as their
// environment's defaults), and one per customer priced on its own.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fx_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('settings', 'jsonb')
    .addColumn('sandbox_provider', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('fx_customer_pricing')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('spread_bps', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('fx_customer_pricing_pkey', ['organization_id', 'customer_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fx_customer_pricing').execute()
  await db.schema.dropTable('fx_settings').execute()
}
