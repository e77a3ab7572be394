// Runs recover requests in the background: each batch of re-queued deliveries is its own short
// transaction, and the request row records progress, so a restart simply carries on.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { requeueFailedBatch } from './requeue.js'

const RECOVERIES_PER_RUN = 10

/** Returns the number of deliveries re-queued in this run. */
export async function processRecoveries(db: Kysely<ReadDatabase>): Promise<number> {
  const running = await db
    .selectFrom('webhook_recoveries')
    .selectAll()
    .where('status', '=', 'RUNNING')
    .orderBy('created_at')
    .limit(RECOVERIES_PER_RUN)
    .execute()
  let total = 0
  for (const recovery of running) {
    for (let batch = 0; batch < WEBHOOK_LIMITS.recoverMaxBatches; batch++) {
      const requeued = await requeueFailedBatch(db, {
        organizationId: recovery.organization_id,
        endpointId: recovery.endpoint_id,
        since: recovery.since,
        until: recovery.until,
        requestedAt: recovery.created_at,
        batchSize: WEBHOOK_LIMITS.recoverBatchSize,
      })
      total += requeued
      const done = requeued < WEBHOOK_LIMITS.recoverBatchSize
      await db
        .updateTable('webhook_recoveries')
        .set((eb) => ({
          requeued: eb('requeued', '+', requeued),
          ...(done ? { status: 'COMPLETED' as const, completed_at: sql<Date>`now()` } : {}),
        }))
        .where('id', '=', recovery.id)
        .execute()
      if (done) break
    }
  }
  return total
}
