// Consumers (the projection runner, the webhook subscriber) and their failures (issue 9): a row
// per consumer while it is failing on an event, so `projections status` and /health in any process
// see it; and the operator's skips, an audit record each, that make a consumer pass over one event
// without editing the event log. Not projections: nothing here is rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('consumer_failures')
    .addColumn('consumer', 'text', (c) => c.primaryKey())
    .addColumn('failing_since', 'timestamptz', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // Bounded, and never data values (see projections/runtime/failureText.ts).
    .addColumn('last_error', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_position', 'text', (c) => c.notNull())
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('consumer_skips')
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_position', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('consumer_skips_pk', ['consumer', 'event_id'])
    .execute()
}
