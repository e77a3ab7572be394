// Invoices (issue 28): one row per invoice, its state as the aggregate evolves it (the payer sealed), the
// list's filters as columns. The list pages by id within an organization; the reference finds one invoice.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('balance_account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_state', 'text', (c) => c.notNull())
    .addColumn('overdue', 'boolean', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('payment_reference', 'text')
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('invoices_organization_id').on('invoices').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('invoices_balance_account').on('invoices').columns(['balance_account_id', 'status']).execute()
  await db.schema
    .createIndex('invoices_payment_reference')
    .on('invoices')
    .column('payment_reference')
    .where(sql.ref('payment_reference'), 'is not', null)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invoices').execute()
}
