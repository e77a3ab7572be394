// Issue 24, money that does not strand:
// - a draw whose credit its payout treasury refused fails and is unwound: its row keeps why and when,
//   and its status becomes FAILED;
// - closing an account looks for transfers still on their way to it: a partial index of the
//   destinations of transfers not yet final (few at any time, whatever the history).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('liquidity_draws')
    .addColumn('failure_code', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('failed_at', 'timestamptz')
    .execute()
  await sql`CREATE INDEX transfers_incoming ON transfers (destination_account_id)
    WHERE status IN ('DRAFT', 'PENDING_AUTHORIZATION', 'PENDING', 'PROCESSING', 'IN_REVIEW')`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX transfers_incoming`.execute(db)
  await db.schema.alterTable('liquidity_draws').dropColumn('failure_code').dropColumn('failure_reason').dropColumn('failed_at').execute()
}
