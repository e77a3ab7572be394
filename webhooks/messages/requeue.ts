// Manual redelivery: put deliveries back in the queue for one attempt now (trigger MANUAL), with
// the retry schedule restarted behind it. The generation bump tells an attempt still in flight
// that a newer request decides the delivery's next state.
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

const REQUEUED = {
  status: 'PENDING' as const,
  next_attempt_at: sql<Date>`now()`,
  next_trigger: 'MANUAL' as const,
  run_attempts: 0,
  last_error: null,
  updated_at: sql<Date>`now()`,
}

/** Creates or re-queues the deliveries of one message to the given endpoints. */
export async function requeueMessage(
  db: Kysely<ReadDatabase>,
  message: { id: string; organizationId: string; seq: string; createdAt: Date },
  endpointIds: readonly string[],
): Promise<void> {
  if (endpointIds.length === 0) return
  await db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        message_id: message.id,
        endpoint_id: endpointId,
        organization_id: message.organizationId,
        message_seq: message.seq,
        message_created_at: message.createdAt,
        ...REQUEUED,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['message_id', 'endpoint_id']).doUpdateSet((eb) => ({
        ...REQUEUED,
        generation: eb('webhook_deliveries.generation', '+', 1),
      })),
    )
    .execute()
}

/**
 * Re-queues up to `batchSize` failed deliveries of an endpoint whose message lies in [since, until)
 * and that failed before `requestedAt` (so one that fails again during the recover is not picked
 * twice). Returns how many it re-queued; 0 means the recover is complete.
 */
export async function requeueFailedBatch(
  db: Kysely<ReadDatabase>,
  input: { organizationId: string; endpointId: string; since: Date; until: Date; requestedAt: Date; batchSize: number },
): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ ...REQUEUED, generation: eb('generation', '+', 1) }))
    .where(
      sql<boolean>`(message_id, endpoint_id) IN (${db
        .selectFrom('webhook_deliveries')
        .select(['message_id', 'endpoint_id'])
        .where('organization_id', '=', input.organizationId)
        .where('endpoint_id', '=', input.endpointId)
        .where('status', '=', 'FAILED')
        .where('message_created_at', '>=', input.since)
        .where('message_created_at', '<', input.until)
        .where('updated_at', '<', input.requestedAt)
        .limit(input.batchSize)
        .forUpdate()
        .skipLocked()})`,
    )
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}
