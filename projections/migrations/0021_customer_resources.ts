// Customers: the resource as the list shows it, kept beside the state (its phone sealed), so a list
// page is its rows' JSON joined, not 50 states parsed, mapped, checked and serialized again (as
// transfers since 0019). Null for rows projected before it: those are made from the state as before
// (`projections rebuild customers` fills them). `json`, not `jsonb`: the text is read back as written.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('resource', 'json').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('resource').execute()
}
