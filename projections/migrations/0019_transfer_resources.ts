// Transfers (issue 13): the resource as the list shows it, kept beside the state (its remitter's
// name sealed), so a list page is its rows' JSON joined, not 50 states parsed, mapped, checked and
// serialized again (docs/explain-transfers.md). Null for rows projected before it: those are made
// from the state as before (`projections rebuild transfers` fills them).
// `json`, not `jsonb`: the text is kept as written and read back without being formatted again
// (jsonb's output costs Postgres more than the rest of a page); stored uncompressed (EXTERNAL), so
// a page does not inflate 50 values.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transfers').addColumn('resource', 'json').execute()
  await sql`ALTER TABLE transfers ALTER COLUMN resource SET STORAGE EXTERNAL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transfers').dropColumn('resource').execute()
}
