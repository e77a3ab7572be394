// Queue depths for /metrics, each a count capped at QUEUE_DEPTH_LIMITS.maxCounted so a scrape costs
// the same however deep a queue grows (the partial indexes of migrations 0004 and 0008 serve them).
import { type Kysely, sql } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'

export const QUEUE_DEPTH_LIMITS = {
  /** Rows counted per figure; a deeper queue shows as this many. */
  maxCounted: 100_000,
} as const

export type QueueDepths = { webhookPending: number; webhookDue: number; schedulerDue: number; schedulerParked: number }

/** One statement: four capped counts. */
export async function readQueueDepths(db: Kysely<ReadDatabase>): Promise<QueueDepths> {
  const cap = QUEUE_DEPTH_LIMITS.maxCounted
  const { rows } = await sql<{ webhook_pending: number; webhook_due: number; scheduler_due: number; scheduler_parked: number }>`
    SELECT
      (SELECT count(*)::integer FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'PENDING' LIMIT ${cap}) p) AS webhook_pending,
      (SELECT count(*)::integer FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at <= now()
        LIMIT ${cap}) d) AS webhook_due,
      (SELECT count(*)::integer FROM (SELECT 1 FROM scheduled_commands WHERE status = 'PENDING' AND next_attempt_at <= now()
        LIMIT ${cap}) s) AS scheduler_due,
      (SELECT count(*)::integer FROM (SELECT 1 FROM scheduled_commands WHERE status = 'PARKED'
        LIMIT ${cap}) k) AS scheduler_parked`.execute(db)
  const row = rows[0]!
  return {
    webhookPending: row.webhook_pending,
    webhookDue: row.webhook_due,
    schedulerDue: row.scheduler_due,
    schedulerParked: row.scheduler_parked,
  }
}
