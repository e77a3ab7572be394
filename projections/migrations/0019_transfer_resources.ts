// Transfers (issue 13): the resource as the list shows it, kept beside the state (its remitter's
// name sealed), so a list page is its rows' JSON joined, not 50 states parsed, mapped, checked and
// serialized again (docs/explain-transfers.md). Null for rows projected before it: those are made
// from the state as before (`projections rebuild transfers` fills them).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transfers').addColumn('resource', 'jsonb').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transfers').dropColumn('resource').execute()
}
