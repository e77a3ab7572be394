// Snapshots of aggregates that opt in (a decider's SnapshotCodec, commands/runtime/): the newest
// state of a stream at a revision, so a command folds only the events after it. Kept here, in the
// read database, whichever event store holds the events. Not a projection and never the truth: a
// row is a cache, rebuilt from the events (`snapshots rebuild`), and one of another codec version
// is ignored.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('aggregate_snapshots')
    .addColumn('stream', 'text', (c) => c.primaryKey().check(sql`length(stream) BETWEEN 1 AND 500`))
    // The revision of the last event the state includes.
    .addColumn('revision', 'bigint', (c) => c.notNull().check(sql`revision >= 0`))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    // The codec's JSON as text: read back and parsed by the runtime, never queried inside.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('aggregate_snapshots').execute()
}
