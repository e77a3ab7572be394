// Reads of one stream and of $all. $all reads stop below the oldest running transaction so an
// event whose transaction commits late is read in its turn, never skipped (unless the caller knows
// no append is in flight: ReadAllOptions.pastRunningTransactions).
import type pg from 'pg'
import { type Position, type RecordedEvent, STORE_LIMITS } from '../port.js'
import { decodePosition } from '../positions.js'
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './rows.js'

export function boundedCount(maxCount: number | undefined): number {
  const count = maxCount ?? STORE_LIMITS.defaultReadCount
  if (!Number.isInteger(count) || count < 1 || count > STORE_LIMITS.maxReadCount) {
    throw new RangeError(`maxCount must be 1..${STORE_LIMITS.maxReadCount}`)
  }
  return count
}

export async function readStream(pool: pg.Pool, stream: string, fromRevision = 0n, maxCount?: number): Promise<RecordedEvent[]> {
  const result = await pool.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_name = $1 AND stream_revision >= $2
     ORDER BY es_events.stream_revision LIMIT $3`,
    [stream, fromRevision.toString(), boundedCount(maxCount)],
  )
  return result.rows.map(toRecordedEvent)
}

export async function readAll(
  pool: pg.Pool,
  from: Position | undefined,
  maxCount?: number,
  pastRunningTransactions = false,
): Promise<RecordedEvent[]> {
  const start = from ? decodePosition(from) : { major: 0n, minor: 0n }
  const gapSafe = pastRunningTransactions ? '' : 'AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())'
  const result = await pool.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM es_events
     WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
       ${gapSafe}
     ORDER BY es_events.transaction_id, es_events.global_position LIMIT $3`,
    [start.major.toString(), start.minor.toString(), boundedCount(maxCount)],
  )
  return result.rows.map(toRecordedEvent)
}
