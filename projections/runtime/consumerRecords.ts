// The durable side of consumers' health: a failure row while a consumer is stuck on an event
// (written by the consumer, read by `projections status` and /health in any process), and the
// operator's skips, which consumers and rebuilds honour.
import type { Kysely } from 'kysely'
import type { Position } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'

/** The projection runner's consumer name (all projectors share one subscription). */
export const PROJECTIONS_CONSUMER = 'projections'

export const CONSUMER_RECORD_LIMITS = {
  /** Skips loaded per consumer; an operator recording more has a bigger problem than memory. */
  maxSkipsPerConsumer: 10_000,
  maxReasonLength: 500,
  maxActorLength: 200,
} as const

export type ConsumerFailure = {
  consumer: string
  failingSince: Date
  attempts: number
  lastError: string
  event: { id: string; type: string; position: Position }
  nextAttemptAt: Date
  updatedAt: Date
}

export type ConsumerSkip = {
  consumer: string
  eventId: string
  eventType: string
  position: Position
  reason: string
  actor: string
  createdAt: Date
}

export async function recordFailure(db: Kysely<ReadDatabase>, failure: Omit<ConsumerFailure, 'updatedAt'>): Promise<void> {
  const row = {
    consumer: failure.consumer,
    failing_since: failure.failingSince,
    attempts: failure.attempts,
    last_error: failure.lastError,
    event_id: failure.event.id,
    event_type: failure.event.type,
    event_position: failure.event.position,
    next_attempt_at: failure.nextAttemptAt,
    updated_at: new Date(),
  }
  await db.insertInto('consumer_failures').values(row)
    .onConflict((oc) => oc.column('consumer').doUpdateSet((eb) => ({
      // Still the same event (another process, an earlier run): it has been failing since then.
      failing_since: eb.case().when('consumer_failures.event_id', '=', eb.ref('excluded.event_id')).then(eb.ref('consumer_failures.failing_since')).else(eb.ref('excluded.failing_since')).end(),
      attempts: eb.ref('excluded.attempts'),
      last_error: eb.ref('excluded.last_error'),
      event_id: eb.ref('excluded.event_id'),
      event_type: eb.ref('excluded.event_type'),
      event_position: eb.ref('excluded.event_position'),
      next_attempt_at: eb.ref('excluded.next_attempt_at'),
      updated_at: eb.ref('excluded.updated_at'),
    })))
    .execute()
}

export async function clearFailure(db: Kysely<ReadDatabase>, consumer: string): Promise<void> {
  await db.deleteFrom('consumer_failures').where('consumer', '=', consumer).execute()
}

export async function hasFailure(db: Kysely<ReadDatabase>, consumer: string): Promise<boolean> {
  return (await db.selectFrom('consumer_failures').select('consumer').where('consumer', '=', consumer).executeTakeFirst()) !== undefined
}

export async function listFailures(db: Kysely<ReadDatabase>): Promise<ConsumerFailure[]> {
  const rows = await db.selectFrom('consumer_failures').selectAll().orderBy('consumer').execute()
  return rows.map((r) => ({
    consumer: r.consumer,
    failingSince: new Date(r.failing_since),
    attempts: r.attempts,
    lastError: r.last_error,
    event: { id: r.event_id, type: r.event_type, position: r.event_position as Position },
    nextAttemptAt: new Date(r.next_attempt_at),
    updatedAt: new Date(r.updated_at),
  }))
}

/** Event ids the consumer passes over. */
export async function loadSkippedIds(db: Kysely<ReadDatabase>, consumer: string): Promise<Set<string>> {
  const rows = await db.selectFrom('consumer_skips').select('event_id').where('consumer', '=', consumer)
    .limit(CONSUMER_RECORD_LIMITS.maxSkipsPerConsumer).execute()
  return new Set(rows.map((r) => r.event_id))
}

/** Records a skip; false when that consumer already skips that event (the first record stands). */
export async function recordSkip(db: Kysely<ReadDatabase>, skip: Omit<ConsumerSkip, 'createdAt'>): Promise<boolean> {
  const inserted = await db.insertInto('consumer_skips').values({
    consumer: skip.consumer,
    event_id: skip.eventId,
    event_type: skip.eventType,
    event_position: skip.position,
    reason: skip.reason,
    actor: skip.actor,
  }).onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing()).returning('event_id').executeTakeFirst()
  return inserted !== undefined
}

export async function listSkips(db: Kysely<ReadDatabase>): Promise<ConsumerSkip[]> {
  const rows = await db.selectFrom('consumer_skips').selectAll().orderBy('created_at').orderBy('consumer').limit(CONSUMER_RECORD_LIMITS.maxSkipsPerConsumer).execute()
  return rows.map((r) => ({
    consumer: r.consumer,
    eventId: r.event_id,
    eventType: r.event_type,
    position: r.event_position as Position,
    reason: r.reason,
    actor: r.actor,
    createdAt: new Date(r.created_at),
  }))
}
