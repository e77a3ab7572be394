// The outcomes of `ledger verify` (issue 29): one row per run, so /metrics shows the last one without
// replaying the ledger itself (a full pass over $all). Not a projection: nothing here is rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_verifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('finished_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('consistent', 'boolean', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull())
    .addColumn('checked_through', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('discrepancy_kind', 'text')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ledger_verifications').execute()
}
