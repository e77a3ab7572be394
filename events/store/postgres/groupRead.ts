// Group read: stream reads that arrive together are answered by one statement, as group commit does
// for appends. A command reads the streams its decision needs as facts (a transfer: its sender and
// an account), and under load most of those reads find nothing new; one round trip for all of them
// saves the writes, wake-ups and parses of many (issue 25, point 7). Each read gets exactly what its
// own query would: a read whose tail is longer than a batch carries is read again alone.
import type pg from 'pg'
import type { RecordedEvent } from '../port.js'
import { type EventRow, toRecordedEvent } from './rows.js'
import { readStream } from './reads.js'

export const GROUP_READ_LIMITS = {
  maxReadsPerBatch: 64,
  // Rows one read may bring in a batch; one more tells that its stream has more, so it is read alone.
  maxRowsPerBatchedRead: 64,
  // Batches on the wire at once; reads arriving meanwhile wait for the next batch.
  maxConcurrentBatches: 2,
  maxWaitingReads: 20_000,
} as const

export class ReadQueueFullError extends Error {
  override readonly name = 'ReadQueueFullError'
}

type PendingRead = {
  stream: string
  fromRevision: bigint
  maxCount: number
  resolve: (events: RecordedEvent[]) => void
  reject: (error: Error) => void
}

const BATCHED_COLUMNS =
  'r.ord::int AS read_index, e.global_position::text AS global_position_text, e.transaction_id::text AS transaction_id_text, ' +
  'e.event_id, e.stream_name, e.stream_revision::text AS stream_revision_text, e.event_type, e.data, e.metadata, e.recorded_at, ' +
  'e.event_hash'

const BATCHED_READ = `SELECT ${BATCHED_COLUMNS}
  FROM unnest($1::text[], $2::bigint[], $3::int[]) WITH ORDINALITY AS r(stream, from_revision, max_count, ord)
  CROSS JOIN LATERAL (
    SELECT * FROM es_events WHERE stream_name = r.stream AND stream_revision >= r.from_revision
    ORDER BY stream_revision LIMIT r.max_count
  ) e
  ORDER BY r.ord, e.stream_revision`

/** The rows a read asks of a batch: all it asked for when that fits, else one more than a batch carries. */
const batchedCount = (read: PendingRead) =>
  read.maxCount <= GROUP_READ_LIMITS.maxRowsPerBatchedRead ? read.maxCount : GROUP_READ_LIMITS.maxRowsPerBatchedRead + 1

async function readBatch(pool: pg.Pool, batch: PendingRead[]): Promise<void> {
  const result = await pool.query<EventRow & { read_index: number }>(BATCHED_READ, [
    batch.map((r) => r.stream),
    batch.map((r) => r.fromRevision.toString()),
    batch.map(batchedCount),
  ])
  const events: RecordedEvent[][] = batch.map(() => [])
  for (const row of result.rows) events[row.read_index - 1]!.push(toRecordedEvent(row))
  batch.forEach((read, i) => {
    const got = events[i]!
    if (got.length <= GROUP_READ_LIMITS.maxRowsPerBatchedRead || read.maxCount <= GROUP_READ_LIMITS.maxRowsPerBatchedRead) read.resolve(got)
    else readStream(pool, read.stream, read.fromRevision, read.maxCount).then(read.resolve, read.reject)
  })
}

export function createGroupReader(pool: pg.Pool) {
  let waiting: PendingRead[] = []
  let inFlight = 0
  let pumpScheduled = false

  function send(batch: PendingRead[]): Promise<void> {
    if (batch.length === 1) {
      const [read] = batch
      return readStream(pool, read!.stream, read!.fromRevision, read!.maxCount).then(read!.resolve)
    }
    return readBatch(pool, batch)
  }

  function pump(): void {
    pumpScheduled = false
    while (inFlight < GROUP_READ_LIMITS.maxConcurrentBatches && waiting.length > 0) {
      const batch = waiting.slice(0, GROUP_READ_LIMITS.maxReadsPerBatch)
      waiting = waiting.slice(batch.length)
      inFlight += 1
      send(batch)
        .catch((error: unknown) => {
          for (const read of batch) read.reject(error as Error)
        })
        .finally(() => {
          inFlight -= 1
          schedulePump()
        })
    }
  }

  /** Pumps once the current callbacks are done, so reads that arrive together share a batch. */
  function schedulePump(): void {
    if (pumpScheduled) return
    pumpScheduled = true
    setImmediate(pump)
  }

  return {
    read(stream: string, fromRevision: bigint, maxCount: number): Promise<RecordedEvent[]> {
      if (waiting.length >= GROUP_READ_LIMITS.maxWaitingReads)
        return Promise.reject(new ReadQueueFullError('Too many stream reads waiting'))
      return new Promise<RecordedEvent[]>((resolve, reject) => {
        waiting.push({ stream, fromRevision, maxCount, resolve, reject })
        schedulePump()
      })
    },
  }
}
