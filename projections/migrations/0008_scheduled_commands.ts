// The scheduler's one durable table of due commands (commands/scheduler/): a row per timer, keyed
// by its deterministic id, claimed by workers with FOR UPDATE SKIP LOCKED and deleted once its
// command ran. A row that keeps failing is parked for an operator. Not a projection: never rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scheduled_commands')
    // Also the command's commandId: a second firing of the same row appends nothing.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('aggregate', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('command', 'jsonb', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status IN ('PENDING', 'PARKED')`),
    )
    .addColumn('attempts', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`attempts >= 0`),
    )
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    // Bounded, and never data values (describeFailure).
    .addColumn('last_error', 'text', (c) => c.check(sql`length(last_error) <= 1000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // What workers claim: pending rows by next attempt.
  await sql`CREATE INDEX scheduled_commands_due ON scheduled_commands (next_attempt_at) WHERE status = 'PENDING'`.execute(db)
  // What operators look at.
  await sql`CREATE INDEX scheduled_commands_parked ON scheduled_commands (updated_at) WHERE status = 'PARKED'`.execute(db)
}
