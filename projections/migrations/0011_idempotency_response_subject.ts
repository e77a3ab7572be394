// Data protection (issue 11): an idempotent response about a customer is sealed with that
// customer's data key (its subject, kept here), so erasing the customer makes the stored response
// unreadable at once, as everything else of theirs. Null: the organization's key (responses about
// nothing personal, and rows sealed before this column).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('response_subject', 'text').execute()
}
