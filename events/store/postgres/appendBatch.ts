// Writes a batch of appends (group commit) with one autocommit statement: lock the streams, check
// each append's expected revision, insert the accepted events, advance the stream rows, notify
// subscribers. A rejected append does not affect the others.
import type pg from 'pg'
import { type AppendResult, type ExpectedRevision, type NewEvent, WrongExpectedVersionError } from '../port.js'
import { encodePosition } from '../positions.js'
import { APPEND_STATEMENT, APPEND_STATEMENT_NAME } from './appendStatement.js'

export type PendingAppend = { stream: string; events: NewEvent[]; expectedRevision: ExpectedRevision }
export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error }

/** Channel used to wake subscribers in other processes; the payload is the last position written. */
export const APPENDED_CHANNEL = 'es_appended'

type Row = {
  append_index: number
  accepted: boolean
  actual_revision: string
  last_revision: string | null
  last_transaction_id: string | null
  last_global_position: string | null
}

/** Appends to distinct streams: the group committer never puts one stream twice in a batch. */
export async function appendBatch(db: pg.Pool | pg.PoolClient, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  const streams: string[] = []
  const kinds: string[] = []
  const expectedRevisions: (string | null)[] = []
  const counts: number[] = []
  const eventAppend: number[] = []
  const eventOffset: number[] = []
  const ids: string[] = []
  const types: string[] = []
  const data: unknown[] = []
  const metadata: unknown[] = []
  const seen = new Set<string>()
  batch.forEach((append, i) => {
    if (seen.has(append.stream)) throw new RangeError(`Stream ${append.stream} appears twice in one batch`)
    seen.add(append.stream)
    streams.push(append.stream)
    const expected = append.expectedRevision
    kinds.push(typeof expected === 'bigint' ? 'revision' : expected)
    expectedRevisions.push(typeof expected === 'bigint' ? expected.toString() : null)
    counts.push(append.events.length)
    append.events.forEach((event, offset) => {
      eventAppend.push(i + 1)
      eventOffset.push(offset)
      ids.push(event.id)
      types.push(event.type)
      data.push(event.data)
      metadata.push(event.metadata)
    })
  })
  const result = await db.query<Row>({
    // Named: each connection parses and plans it once, not on every batch.
    name: APPEND_STATEMENT_NAME,
    text: APPEND_STATEMENT,
    values: [streams, kinds, expectedRevisions, counts, eventAppend, eventOffset, ids, types, JSON.stringify(data), JSON.stringify(metadata)],
  })
  if (result.rows.length !== batch.length) throw new Error(`The append statement answered ${result.rows.length} rows for ${batch.length} appends`)
  return result.rows.map((row, i): AppendOutcome => {
    const append = batch[i]!
    if (row.append_index !== i + 1) throw new Error('The append statement answered out of order')
    if (!row.accepted) {
      const actual = BigInt(row.actual_revision)
      return { ok: false, error: new WrongExpectedVersionError(append.stream, append.expectedRevision, actual < 0n ? 'no_stream' : actual) }
    }
    if (row.last_revision === null || row.last_transaction_id === null || row.last_global_position === null) {
      throw new Error('The append statement accepted an append without writing it')
    }
    return {
      ok: true,
      result: { nextExpectedRevision: BigInt(row.last_revision), position: encodePosition(row.last_transaction_id, row.last_global_position) },
    }
  })
}
