// The durable side of consumers' health: a failure row while a consumer is stuck on an event
// (written by the consumer, read by `projections status` and /health in any process), and the
// operator's skips, which consumers and rebuilds honour. Plain SQL on the tables of tables.ts, so
// it runs on whatever Kysely database the caller holds.
import { type QueryExecutorProvider, sql } from 'kysely'
import type { Position } from '../store/port.js'

/** Any Kysely database or transaction: these statements name only the runtime's own tables. */
type SqlRunner = QueryExecutorProvider

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

export async function recordFailure(db: SqlRunner, failure: Omit<ConsumerFailure, 'updatedAt'>): Promise<void> {
  // Still the same event (another process, an earlier run): it has been failing since then.
  await sql`
    INSERT INTO consumer_failures
      (consumer, failing_since, attempts, last_error, event_id, event_type, event_position, next_attempt_at, updated_at)
    VALUES (${failure.consumer}, ${failure.failingSince}, ${failure.attempts}, ${failure.lastError}, ${failure.event.id},
      ${failure.event.type}, ${failure.event.position}, ${failure.nextAttemptAt}, ${new Date()})
    ON CONFLICT (consumer) DO UPDATE SET
      failing_since = CASE WHEN consumer_failures.event_id = excluded.event_id
        THEN consumer_failures.failing_since ELSE excluded.failing_since END,
      attempts = excluded.attempts, last_error = excluded.last_error, event_id = excluded.event_id, event_type = excluded.event_type,
      event_position = excluded.event_position, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at`.execute(db)
}

export async function clearFailure(db: SqlRunner, consumer: string): Promise<void> {
  await sql`DELETE FROM consumer_failures WHERE consumer = ${consumer}`.execute(db)
}

export async function hasFailure(db: SqlRunner, consumer: string): Promise<boolean> {
  const { rows } = await sql<{ consumer: string }>`SELECT consumer FROM consumer_failures WHERE consumer = ${consumer}`.execute(db)
  return rows.length > 0
}

type FailureRow = {
  consumer: string
  failing_since: Date
  attempts: number
  last_error: string
  event_id: string
  event_type: string
  event_position: string
  next_attempt_at: Date
  updated_at: Date
}

export async function listFailures(db: SqlRunner): Promise<ConsumerFailure[]> {
  const { rows } = await sql<FailureRow>`SELECT * FROM consumer_failures ORDER BY consumer`.execute(db)
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
export async function loadSkippedIds(db: SqlRunner, consumer: string): Promise<Set<string>> {
  const { rows } = await sql<{ event_id: string }>`
    SELECT event_id FROM consumer_skips WHERE consumer = ${consumer} LIMIT ${CONSUMER_RECORD_LIMITS.maxSkipsPerConsumer}`.execute(db)
  return new Set(rows.map((r) => r.event_id))
}

/** Records a skip; false when that consumer already skips that event (the first record stands). */
export async function recordSkip(db: SqlRunner, skip: Omit<ConsumerSkip, 'createdAt'>): Promise<boolean> {
  const { rows } = await sql<{ event_id: string }>`
    INSERT INTO consumer_skips (consumer, event_id, event_type, event_position, reason, actor)
    VALUES (${skip.consumer}, ${skip.eventId}, ${skip.eventType}, ${skip.position}, ${skip.reason}, ${skip.actor})
    ON CONFLICT (consumer, event_id) DO NOTHING RETURNING event_id`.execute(db)
  return rows.length > 0
}

type SkipRow = {
  consumer: string
  event_id: string
  event_type: string
  event_position: string
  reason: string
  actor: string
  created_at: Date
}

export async function listSkips(db: SqlRunner): Promise<ConsumerSkip[]> {
  const { rows } = await sql<SkipRow>`
    SELECT * FROM consumer_skips ORDER BY created_at, consumer LIMIT ${CONSUMER_RECORD_LIMITS.maxSkipsPerConsumer}`.execute(db)
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
