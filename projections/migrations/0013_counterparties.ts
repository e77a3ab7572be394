// Counterparties (issue 12): a customer's payees. The address is a JSON column whose street lines
// are sealed (projections/sealedColumns.ts). Lists filter by customer and beneficiary type and
// page by id (ids sort by creation), so each filter has an index ending in id.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('counterparties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('beneficiary_type', 'text', (c) => c.notNull())
    .addColumn('is_third_party', 'boolean', (c) => c.notNull())
    .addColumn('address', 'jsonb')
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('counterparties_org_id').on('counterparties').columns(['organization_id', 'id']).execute()
  await db.schema
    .createIndex('counterparties_org_customer_id')
    .on('counterparties')
    .columns(['organization_id', 'customer_id', 'id'])
    .execute()
  await db.schema
    .createIndex('counterparties_org_type_id')
    .on('counterparties')
    .columns(['organization_id', 'beneficiary_type', 'id'])
    .execute()
}
