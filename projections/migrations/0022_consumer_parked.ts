// Parked streams (issue 24): an event a consumer cannot handle is parked for that consumer alone, a
// dead letter, and so is every later event of its stream for that consumer (reason 'behind'), so
// the consumer goes on with every other stream and order within a stream holds. An operator replays
// them (`projections parked replay`); each replay leaves an audit row. Each checkpoint row carries
// its consumer's letter count: the batch transaction locks and reads that row anyway, so the usual
// case (nothing parked) costs no query of its own. Not projections: nothing here is rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('consumer_parked')
    // The consumer (its checkpoint's name: a projector, a workflow, the webhook subscriber) and the
    // group that runs it (what /health and the failure records name).
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('consumer_group', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('stream_revision', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_position', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason IN ('failed', 'behind')`))
    // Bounded, and never data values (events/consumers/failureText.ts); null for 'behind'.
    .addColumn('error', 'text', (c) => c.check(sql`length(error) <= 1000`))
    .addColumn('attempts', 'integer', (c) => c.notNull().check(sql`attempts >= 0`))
    .addColumn('parked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('consumer_parked_pk', ['consumer', 'event_id'])
    .execute()
  // A batch asks "which of these streams are parked for these consumers"; a replay reads a stream's letters in order.
  await sql`CREATE INDEX consumer_parked_stream ON consumer_parked (consumer, stream, event_position)`.execute(db)

  await db.schema
    .alterTable('consumer_checkpoints')
    .addColumn('parked_letters', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('consumer_parked_replays')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('consumer_group', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome IN ('replayed', 'failed')`))
    // The letters applied (or passed over: an operator skipped their event), in order.
    .addColumn('replayed_event_ids', sql`text[]`, (c) => c.notNull())
    .addColumn('skipped_event_ids', sql`text[]`, (c) => c.notNull())
    // The letter that failed again, and why; null when the stream was replayed whole.
    .addColumn('failed_event_id', 'text')
    .addColumn('error', 'text', (c) => c.check(sql`length(error) <= 1000`))
    .addColumn('replayed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('consumer_parked_replays').execute()
  await db.schema.alterTable('consumer_checkpoints').dropColumn('parked_letters').execute()
  await db.schema.dropTable('consumer_parked').execute()
}
