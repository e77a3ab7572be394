// Dead letters (consumer_parked, migration 0022): an event a consumer gave up on ('failed'), and every
// later event of that stream it was handed meanwhile ('behind'), one row per (consumer, event). A
// consumer's letter count rides on its checkpoint row (parked_letters), so the batch transaction,
// which locks and reads that row anyway, knows without a query of its own whether to look here.
// Every write here happens under the consumer's checkpoint row lock (the batch's, or a replay's
// lockCheckpoint), which is what keeps the count exact and a stream's letters in order.
import { type QueryExecutorProvider, sql } from 'kysely'
import type { Position, RecordedEvent } from '../store/port.js'

/** Any Kysely database or transaction: these statements name only the runtime's own tables. */
type SqlRunner = QueryExecutorProvider

export const DEAD_LETTER_LIMITS = {
  /** Letters one listing returns; an operator past this has a bigger problem than a long page. */
  maxListed: 10_000,
  /** Letters of one (consumer, stream) a replay takes in one round. */
  maxLettersPerRound: 1_000,
} as const

export type ParkReason = 'failed' | 'behind'

export type NewDeadLetter = {
  consumer: string
  group: string
  event: RecordedEvent
  reason: ParkReason
  /** describeFailure text for 'failed'; null for 'behind'. */
  error: string | null
  attempts: number
}

export type DeadLetter = {
  consumer: string
  group: string
  eventId: string
  stream: string
  streamRevision: bigint
  eventType: string
  position: Position
  organizationId: string | null
  reason: ParkReason
  error: string | null
  attempts: number
  parkedAt: Date
}

/** For each consumer, the streams among `streams` it has letters on, and the first letter's position. */
export type ParkedStreams = Map<string, Map<string, Position>>

export async function readParkedStreams(db: SqlRunner, consumers: readonly string[], streams: readonly string[]): Promise<ParkedStreams> {
  const parked: ParkedStreams = new Map()
  if (consumers.length === 0 || streams.length === 0) return parked
  const { rows } = await sql<{ consumer: string; stream: string; first: Position }>`
    SELECT consumer, stream, min(event_position) AS first FROM consumer_parked
    WHERE consumer = ANY (${[...consumers]}::text[]) AND stream = ANY (${[...new Set(streams)]}::text[])
    GROUP BY consumer, stream`.execute(db)
  for (const r of rows) {
    const byStream = parked.get(r.consumer) ?? new Map<string, Position>()
    byStream.set(r.stream, r.first)
    parked.set(r.consumer, byStream)
  }
  return parked
}

/**
 * Writes letters and adds them to their consumers' counts, in one statement (the batch's hot path
 * pays one round trip only when it parks something). A letter that exists already stays as it is.
 */
export async function writeDeadLetters(db: SqlRunner, letters: readonly NewDeadLetter[]): Promise<void> {
  if (letters.length === 0) return
  const rows = letters.map((l) => ({
    consumer: l.consumer,
    event_id: l.event.id,
    consumer_group: l.group,
    stream: l.event.stream,
    stream_revision: l.event.revision.toString(),
    event_type: l.event.type,
    event_position: l.event.position,
    organization_id: l.event.metadata.organizationId ?? null,
    reason: l.reason,
    error: l.error,
    attempts: l.attempts,
  }))
  await sql`
    WITH written AS (
      INSERT INTO consumer_parked (consumer, event_id, consumer_group, stream, stream_revision, event_type, event_position,
        organization_id, reason, error, attempts)
      SELECT consumer, event_id, consumer_group, stream, stream_revision::bigint, event_type, event_position, organization_id, reason,
        error, attempts
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(consumer text, event_id text, consumer_group text, stream text,
        stream_revision text, event_type text, event_position text, organization_id text, reason text, error text, attempts integer)
      ON CONFLICT (consumer, event_id) DO NOTHING
      RETURNING consumer)
    UPDATE consumer_checkpoints c SET parked_letters = c.parked_letters + w.added
    FROM (SELECT consumer, count(*)::integer AS added FROM written GROUP BY consumer) w
    WHERE c.name = w.consumer`.execute(db)
}

/** Sets the consumer's count from its letters (after a replay or a rebuild changed them). */
export async function recountDeadLetters(db: SqlRunner, consumer: string): Promise<number> {
  const { rows } = await sql<{ parked_letters: number }>`
    UPDATE consumer_checkpoints SET parked_letters = (SELECT count(*)::integer FROM consumer_parked WHERE consumer = ${consumer})
    WHERE name = ${consumer} RETURNING parked_letters`.execute(db)
  return rows[0]?.parked_letters ?? 0
}

type LetterRow = {
  consumer: string
  event_id: string
  consumer_group: string
  stream: string
  stream_revision: string
  event_type: string
  event_position: string
  organization_id: string | null
  reason: ParkReason
  error: string | null
  attempts: number
  parked_at: Date
}

const toLetter = (r: LetterRow): DeadLetter => ({
  consumer: r.consumer,
  group: r.consumer_group,
  eventId: r.event_id,
  stream: r.stream,
  streamRevision: BigInt(r.stream_revision),
  eventType: r.event_type,
  position: r.event_position as Position,
  organizationId: r.organization_id,
  reason: r.reason,
  error: r.error,
  attempts: r.attempts,
  parkedAt: new Date(r.parked_at),
})

export type LetterFilter = { consumer?: string; group?: string; eventId?: string; stream?: string }

/** Letters by group, consumer, stream and position (the order a replay applies them in). */
export async function listDeadLetters(db: SqlRunner, filter: LetterFilter = {}, limit: number = DEAD_LETTER_LIMITS.maxListed) {
  const { consumer = null, group = null, eventId = null, stream = null } = filter
  const { rows } = await sql<LetterRow>`
    SELECT consumer, event_id, consumer_group, stream, stream_revision::text AS stream_revision, event_type, event_position,
      organization_id, reason, error, attempts, parked_at
    FROM consumer_parked
    WHERE (${consumer}::text IS NULL OR consumer = ${consumer}) AND (${group}::text IS NULL OR consumer_group = ${group})
      AND (${eventId}::text IS NULL OR event_id = ${eventId}) AND (${stream}::text IS NULL OR stream = ${stream})
    ORDER BY consumer_group, consumer, stream, event_position
    LIMIT ${Math.min(limit, DEAD_LETTER_LIMITS.maxListed)}`.execute(db)
  return rows.map(toLetter)
}

/** One (consumer, stream)'s letters in position order, at most `limit`. */
export const lettersOfStream = (db: SqlRunner, consumer: string, stream: string, limit: number = DEAD_LETTER_LIMITS.maxLettersPerRound) =>
  listDeadLetters(db, { consumer, stream }, limit)

/** Deletes the given letters of one consumer (a replay applied them); the caller recounts. */
export async function deleteDeadLetters(db: SqlRunner, consumer: string, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return
  await sql`DELETE FROM consumer_parked WHERE consumer = ${consumer} AND event_id = ANY (${[...eventIds]}::text[])`.execute(db)
}

/** A replayed letter failed again: it stays, now the stream's failure, with one attempt more and the new error. */
export async function letterFailedAgain(db: SqlRunner, consumer: string, eventId: string, error: string): Promise<void> {
  await sql`
    UPDATE consumer_parked SET reason = 'failed', error = ${error}, attempts = attempts + 1
    WHERE consumer = ${consumer} AND event_id = ${eventId}`.execute(db)
}

/** Every letter of a consumer goes (a rebuild applied its whole history again); answers how many there were. */
export async function clearDeadLetters(db: SqlRunner, consumer: string): Promise<number> {
  const { rows } = await sql<{ cleared: number }>`
    WITH cleared AS (DELETE FROM consumer_parked WHERE consumer = ${consumer} RETURNING 1)
    SELECT count(*)::integer AS cleared FROM cleared`.execute(db)
  await recountDeadLetters(db, consumer)
  return rows[0]?.cleared ?? 0
}

export type ParkedCount = { group: string; consumer: string; letters: number; streams: number; failed: number }

/** Letters, streams and failed letters per consumer. */
export async function countDeadLetters(db: SqlRunner): Promise<ParkedCount[]> {
  const { rows } = await sql<ParkedCount>`
    SELECT consumer_group AS "group", consumer, count(*)::integer AS letters, count(DISTINCT stream)::integer AS streams,
      (count(*) FILTER (WHERE reason = 'failed'))::integer AS failed
    FROM consumer_parked GROUP BY consumer_group, consumer ORDER BY consumer_group, consumer`.execute(db)
  return rows
}
