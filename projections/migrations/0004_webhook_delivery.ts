// Webhook delivery (issue 3): the subscriber's checkpoint and endpoint snapshots, messages,
// deliveries (one per message and endpoint, the dispatcher's durable queue), attempts and
// recover requests. Not projections: nothing here is rebuilt, so foreign keys are fine.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_subscriber_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  // Endpoints as of the subscriber's position, so fan-out sees them as they were at the event.
  // A deleted endpoint stays as a tombstone: "deleted" and "not seen yet" must differ.
  await db.schema
    .createTable('webhook_delivery_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('disabled', 'boolean', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull())
    .addColumn('filter_types', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_delivery_endpoints_org').on('webhook_delivery_endpoints').column('organization_id').execute()

  await db.schema
    .createTable('webhook_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('tags', sql`text[]`, (c) => c.notNull())
    .addColumn('target_endpoint_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_messages_org_seq').on('webhook_messages').columns(['organization_id', 'seq']).execute()
  await db.schema.createIndex('webhook_messages_created_at').on('webhook_messages').column('created_at').execute()
  await sql`CREATE INDEX webhook_messages_tags ON webhook_messages USING gin (tags)`.execute(db)

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('message_seq', 'bigint', (c) => c.notNull())
    .addColumn('message_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('next_trigger', 'text', (c) => c.notNull())
    .addColumn('run_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('leased_at', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_deliveries_pk', ['message_id', 'endpoint_id'])
    .execute()
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id) WHERE lease_token IS NOT NULL`.execute(db)
  await db.schema.createIndex('webhook_deliveries_endpoint_seq').on('webhook_deliveries').columns(['endpoint_id', 'message_seq']).execute()
  await db.schema
    .createIndex('webhook_deliveries_endpoint_status')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'message_created_at'])
    .execute()

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_attempt_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('webhook_attempts_message').on('webhook_attempts').columns(['message_id', 'seq']).execute()

  await db.schema
    .createTable('webhook_recoveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('since', 'timestamptz', (c) => c.notNull())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requeued', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .execute()
  await sql`CREATE INDEX webhook_recoveries_running ON webhook_recoveries (created_at) WHERE status = 'RUNNING'`.execute(db)
}
