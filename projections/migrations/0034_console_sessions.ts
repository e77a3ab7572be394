// Console sessions (issue 30, point 4; owned by server/console/): a browser's sign-in with an API key,
// kept as the SHA-256 of an opaque random token (the cookie's value is never stored), bound to the
// key, its organization and environment, with an absolute and an idle expiry.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .execute()
  // A key's sessions (the per-key cap), and the expired ones a sign-in sweeps away.
  await db.schema.createIndex('console_sessions_key_id').on('console_sessions').columns(['key_id', 'created_at']).execute()
  await db.schema.createIndex('console_sessions_expires_at').on('console_sessions').column('expires_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_sessions').execute()
}
