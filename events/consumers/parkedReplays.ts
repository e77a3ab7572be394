// The audit of dead-letter replays (consumer_parked_replays, migration 0022): who replayed which
// (consumer, stream), which letters were applied or passed over (an operator skipped their event),
// and which failed again with what. Written in the replay's own transaction, so it says exactly what
// committed. Never edited, never deleted.
import { type QueryExecutorProvider, sql } from 'kysely'

type SqlRunner = QueryExecutorProvider

export const REPLAY_AUDIT_LIMITS = {
  maxActorLength: 200,
  /** Audit rows one listing returns, newest first. */
  maxListed: 1_000,
} as const

export type ParkedReplay = {
  consumer: string
  group: string
  stream: string
  actor: string
  outcome: 'replayed' | 'failed'
  replayedEventIds: string[]
  skippedEventIds: string[]
  failedEventId: string | null
  error: string | null
}

export async function recordParkedReplay(db: SqlRunner, replay: ParkedReplay): Promise<void> {
  await sql`
    INSERT INTO consumer_parked_replays
      (consumer, consumer_group, stream, actor, outcome, replayed_event_ids, skipped_event_ids, failed_event_id, error)
    VALUES (${replay.consumer}, ${replay.group}, ${replay.stream}, ${replay.actor}, ${replay.outcome}, ${replay.replayedEventIds}::text[],
      ${replay.skippedEventIds}::text[], ${replay.failedEventId}, ${replay.error})`.execute(db)
}

type ReplayRow = {
  consumer: string
  consumer_group: string
  stream: string
  actor: string
  outcome: 'replayed' | 'failed'
  replayed_event_ids: string[]
  skipped_event_ids: string[]
  failed_event_id: string | null
  error: string | null
  replayed_at: Date
}

export async function listParkedReplays(db: SqlRunner, limit: number = REPLAY_AUDIT_LIMITS.maxListed) {
  const { rows } = await sql<ReplayRow>`
    SELECT consumer, consumer_group, stream, actor, outcome, replayed_event_ids, skipped_event_ids, failed_event_id, error, replayed_at
    FROM consumer_parked_replays ORDER BY id DESC LIMIT ${Math.min(limit, REPLAY_AUDIT_LIMITS.maxListed)}`.execute(db)
  return rows.map((r) => ({
    consumer: r.consumer,
    group: r.consumer_group,
    stream: r.stream,
    actor: r.actor,
    outcome: r.outcome,
    replayedEventIds: r.replayed_event_ids,
    skippedEventIds: r.skipped_event_ids,
    failedEventId: r.failed_event_id,
    error: r.error,
    replayedAt: new Date(r.replayed_at),
  }))
}
