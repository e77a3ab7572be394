// How this database's read models are kept (issue 25): 'inline', in the transaction of the events
// that change them (the Postgres store), or 'async', by the consumer runtime from $all (EventStoreDB,
// or a database made so). One row, written by the first process to start on the database
// (projections/runtime/projectionMode.ts); every later process follows it.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projection_mode')
    .addColumn('singleton', 'boolean', (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`singleton`),
    )
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode IN ('inline', 'async')`))
    .addColumn('since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}
