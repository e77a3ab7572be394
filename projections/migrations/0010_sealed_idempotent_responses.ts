// Data protection (issue 11): an idempotent request's stored response is kept sealed (it can hold a
// phone number or a signing secret), as bytes with the organization's data key. The clear column
// stays for records from before (sealed in place by `data seal-existing`, or purged within 24 hours).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('response_sealed', 'bytea').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('response_sealed').execute()
}
