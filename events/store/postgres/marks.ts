// Marks of $all (id, type, position, time; no data): what lag and staleness are measured by. Both
// reads keep the gap-safe horizon of reads.ts, so they see what a consumer's next read would see.
import type pg from 'pg'
import type { EventMark, Position } from '../port.js'
import { decodePosition, encodePosition } from '../positions.js'
import { boundedCount } from './reads.js'

type MarkRow = { event_id: string; event_type: string; tx: string; gp: string; recorded_at: Date }

const MARK_COLUMNS = 'event_id, event_type, transaction_id::text AS tx, global_position::text AS gp, recorded_at'
const GAP_SAFE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())'

const toMark = (row: MarkRow): EventMark => ({
  id: row.event_id,
  type: row.event_type,
  position: encodePosition(row.tx, row.gp),
  recordedAt: row.recorded_at,
})

export async function readAllMarks(pool: pg.Pool, from: Position | undefined, maxCount?: number): Promise<EventMark[]> {
  const start = from ? decodePosition(from) : { major: 0n, minor: 0n }
  const result = await pool.query<MarkRow>(
    `SELECT ${MARK_COLUMNS} FROM es_events
     WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND ${GAP_SAFE}
     ORDER BY es_events.transaction_id, es_events.global_position LIMIT $3`,
    [start.major.toString(), start.minor.toString(), boundedCount(maxCount)],
  )
  return result.rows.map(toMark)
}

/** The primary key read backwards: it passes over only the rows of transactions newer than the horizon. */
export async function readHead(pool: pg.Pool): Promise<EventMark | undefined> {
  const result = await pool.query<MarkRow>(
    `SELECT ${MARK_COLUMNS} FROM es_events WHERE ${GAP_SAFE}
     ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`,
  )
  const row = result.rows[0]
  return row ? toMark(row) : undefined
}
