// How many endpoints each organization has (issue 9): creation refuses past a per-organization
// limit, so fan-out (capped at 1 000 endpoints a message) never drops one. Kept by the webhook
// endpoints projector in the same statements as the endpoint rows; backfilled from them here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoint_counts')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('endpoints', 'integer', (c) => c.notNull().check(sql`endpoints >= 0`))
    .execute()
  await sql`INSERT INTO webhook_endpoint_counts (organization_id, endpoints)
    SELECT organization_id, count(*) FROM webhook_endpoints GROUP BY organization_id`.execute(db)
}
