// API key roles (issue 29): FULL (every key before roles existed) or AUDITOR (read-only). The default
// fills the existing rows, as their ApiKeyCreated events (no role) read.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('FULL'))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('role').execute()
}
