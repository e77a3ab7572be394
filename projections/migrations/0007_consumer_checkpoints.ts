// One checkpoint table for every consumer on the consumer runtime (events/consumers/): projectors,
// the webhook subscriber and workflows. Replaces projection_checkpoints (0001) and
// webhook_subscriber_checkpoints (0004); their rows are copied, so an upgraded database resumes
// every consumer where it stood. Not a projection: nothing here is rebuilt.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('consumer_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // The names never collided (projector names, and 'webhook_messages'); should they, the further position stands.
  await sql`
    INSERT INTO consumer_checkpoints (name, position, updated_at)
    SELECT name, max(position), max(updated_at) FROM (
      SELECT name, position, updated_at FROM projection_checkpoints
      UNION ALL
      SELECT name, position, updated_at FROM webhook_subscriber_checkpoints
    ) old GROUP BY name`.execute(db)
  await db.schema.dropTable('projection_checkpoints').execute()
  await db.schema.dropTable('webhook_subscriber_checkpoints').execute()
}
