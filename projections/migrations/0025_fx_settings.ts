// FX settings (issue 26): one row per organization that configured FX or quoted (the others read as
// their environment's defaults), and one per customer priced on its own; FX quotes, one row each.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fx_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('settings', 'jsonb')
    .addColumn('sandbox_provider', 'jsonb')
    .addColumn('capacity_use', 'jsonb', (c) => c.notNull().defaultTo('{}'))
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
  await db.schema
    .createTable('fx_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('quote', 'jsonb', (c) => c.notNull())
    .addColumn('outcome', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fx_quotes').execute()
  await db.schema.dropTable('fx_customer_pricing').execute()
  await db.schema.dropTable('fx_settings').execute()
}
