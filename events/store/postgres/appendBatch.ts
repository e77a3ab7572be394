// Writes a batch of appends (group commit) with one call of es_append_batch in autocommit: lock
// the streams, check each append's expected revision in queue order, insert the accepted events,
// advance the stream rows, notify subscribers. A rejected append does not affect the others.
import type pg from 'pg'
import { type AppendResult, type ExpectedRevision, type NewEvent, type Position, WrongExpectedVersionError } from '../port.js'

export type PendingAppend = { stream: string; events: NewEvent[]; expectedRevision: ExpectedRevision }
export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error }

/** Channel used to wake subscribers in other processes; the payload is the last position written. */
export const APPENDED_CHANNEL = 'es_appended'

type Row = { append_index: number; accepted: boolean; actual_revision: string; last_revision: string | null; last_position: string | null }

export async function appendBatch(db: pg.Pool | pg.PoolClient, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  const streams: string[] = []
  const expected: string[] = []
  const counts: number[] = []
  const eventAppend: number[] = []
  const eventOffset: number[] = []
  const ids: string[] = []
  const types: string[] = []
  const data: string[] = []
  const metadata: string[] = []
  batch.forEach((append, i) => {
    streams.push(append.stream)
    expected.push(typeof append.expectedRevision === 'bigint' ? append.expectedRevision.toString() : append.expectedRevision)
    counts.push(append.events.length)
    append.events.forEach((event, offset) => {
      eventAppend.push(i + 1)
      eventOffset.push(offset)
      ids.push(event.id)
      types.push(event.type)
      data.push(JSON.stringify(event.data))
      metadata.push(JSON.stringify(event.metadata))
    })
  })
  const result = await db.query<Row>({
    // Named: each connection parses and plans it once, not on every batch.
    name: 'es_append_batch',
    text: 'SELECT append_index, accepted, actual_revision::text, last_revision::text, last_position FROM es_append_batch($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    values: [streams, expected, counts, eventAppend, eventOffset, ids, types, data, metadata],
  })
  return result.rows.map((row, i): AppendOutcome => {
    const append = batch[i]!
    if (row.append_index !== i + 1) throw new Error('es_append_batch answered out of order')
    if (!row.accepted) {
      const actual = BigInt(row.actual_revision)
      return { ok: false, error: new WrongExpectedVersionError(append.stream, append.expectedRevision, actual < 0n ? 'no_stream' : actual) }
    }
    if (row.last_revision === null || row.last_position === null) throw new Error('es_append_batch accepted an append without writing it')
    return { ok: true, result: { nextExpectedRevision: BigInt(row.last_revision), position: row.last_position as Position } }
  })
}
