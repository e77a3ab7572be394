// Retention: messages older than 90 days go, with their deliveries and attempts (ON DELETE
// CASCADE), in bounded batches of short transactions.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'

/** Returns the number of messages purged. `now` is injectable for tests of the cut-off. */
export async function purgeExpiredMessages(db: Kysely<ReadDatabase>, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LIMITS.retentionMs)
  let purged = 0
  for (let batch = 0; batch < WEBHOOK_LIMITS.retentionMaxBatches; batch++) {
    const result = await db
      .deleteFrom('webhook_messages')
      .where(
        sql<boolean>`id IN (${db
          .selectFrom('webhook_messages')
          .select('id')
          .where('created_at', '<', cutoff)
          .limit(WEBHOOK_LIMITS.retentionBatchSize)})`,
      )
      .executeTakeFirst()
    const n = Number(result.numDeletedRows)
    purged += n
    if (n < WEBHOOK_LIMITS.retentionBatchSize) break
  }
  // Finished recover requests are history too.
  await db.deleteFrom('webhook_recoveries').where('status', '=', 'COMPLETED').where('created_at', '<', cutoff).execute()
  return purged
}
