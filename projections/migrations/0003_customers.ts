// Customers (with their verification sessions), documents and document contents.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('country_code', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // The whole aggregate state, mapped by the same functions as the write side.
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('customers_org_id').on('customers').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('customers_org_created').on('customers').columns(['organization_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('customers_org_name').on('customers').columns(['organization_id', 'customer_name', 'id']).execute()
  await db.schema.createIndex('customers_org_status').on('customers').columns(['organization_id', 'status', 'id']).execute()

  await db.schema
    .createTable('verification_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('associated_entity_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('verification_sessions_customer').on('verification_sessions').columns(['customer_id', 'id']).execute()
  // The expiry timer's query: active sessions by due time.
  await db.schema
    .createIndex('verification_sessions_due')
    .on('verification_sessions')
    .column('expires_at')
    .where(sql.ref('status'), '=', 'ACTIVE')
    .execute()

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('documents_org_id').on('documents').columns(['organization_id', 'id']).execute()

  // Written by the upload command before its event, never by a projector: a rebuild leaves it alone.
  await db.schema
    .createTable('document_contents')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}
