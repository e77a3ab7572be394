// The dead letters as /health and `projections status` show them: per group, how many, and the
// oldest few with their tenant, stream, event, error and time (`projections parked` lists them all).
// One statement; the oldest are read per group through the lateral join, never the whole table sorted.
import { type QueryExecutorProvider, sql } from 'kysely'
import type { ParkReason } from './deadLetters.js'

export const PARKED_SUMMARY_LIMITS = {
  /** Letters shown per group, oldest first. */
  oldestPerGroup: 20,
} as const

export type ParkedLetterSummary = {
  consumer: string
  organizationId: string | null
  stream: string
  eventId: string
  eventType: string
  reason: ParkReason
  /** describeFailure's text (failureText.ts): what failed and where, never the data. */
  error: string | null
  parkedAt: Date
}

export type ParkedGroupSummary = { group: string; letters: number; oldest: ParkedLetterSummary[] }

type Row = {
  consumer_group: string
  letters: number
  consumer: string
  organization_id: string | null
  stream: string
  event_id: string
  event_type: string
  reason: ParkReason
  error: string | null
  parked_at: Date
}

/** Groups with letters, by name; each with its count and its oldest letters. */
export async function summarizeParked(
  db: QueryExecutorProvider,
  perGroup: number = PARKED_SUMMARY_LIMITS.oldestPerGroup,
): Promise<ParkedGroupSummary[]> {
  const limit = Math.min(Math.max(1, perGroup), PARKED_SUMMARY_LIMITS.oldestPerGroup)
  const { rows } = await sql<Row>`
    SELECT g.consumer_group, g.letters, l.consumer, l.organization_id, l.stream, l.event_id, l.event_type, l.reason, l.error, l.parked_at
    FROM (SELECT consumer_group, count(*)::integer AS letters FROM consumer_parked GROUP BY consumer_group) g
    CROSS JOIN LATERAL (
      SELECT consumer, organization_id, stream, event_id, event_type, reason, error, parked_at FROM consumer_parked p
      WHERE p.consumer_group = g.consumer_group ORDER BY parked_at, event_position LIMIT ${limit}) l
    ORDER BY g.consumer_group, l.parked_at, l.event_id`.execute(db)
  const groups = new Map<string, ParkedGroupSummary>()
  for (const r of rows) {
    const group = groups.get(r.consumer_group) ?? { group: r.consumer_group, letters: r.letters, oldest: [] }
    group.oldest.push({
      consumer: r.consumer,
      organizationId: r.organization_id,
      stream: r.stream,
      eventId: r.event_id,
      eventType: r.event_type,
      reason: r.reason,
      error: r.error,
      parkedAt: new Date(r.parked_at),
    })
    groups.set(r.consumer_group, group)
  }
  return [...groups.values()]
}
