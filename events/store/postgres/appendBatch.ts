// One transaction that writes a batch of appends (group commit): lock every stream row, check each
// append's expected revision in queue order, insert the accepted events, advance the stream rows.
// Four round trips whatever the batch size. A rejected append does not affect the others.
import type pg from 'pg'
import { type AppendResult, type ExpectedRevision, type NewEvent, WrongExpectedVersionError } from '../port.js'

export type PendingAppend = { stream: string; events: NewEvent[]; expectedRevision: ExpectedRevision }
export type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: Error }

/** Channel used to wake subscribers in other processes; the payload is the last position written. */
export const APPENDED_CHANNEL = 'es_appended'

const LOCK_STREAMS_SQL = `
INSERT INTO es_streams (stream_name, revision)
SELECT s, -1 FROM unnest($1::text[]) AS s ORDER BY s
ON CONFLICT (stream_name) DO UPDATE SET revision = es_streams.revision
RETURNING stream_name, revision::text`

const WRITE_EVENTS_SQL = `
WITH e AS (
  INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::jsonb[], $6::jsonb[])
  RETURNING global_position, transaction_id, event_id
), s AS (
  UPDATE es_streams SET revision = u.rev
  FROM unnest($7::text[], $8::bigint[]) AS u(name, rev) WHERE es_streams.stream_name = u.name
)
SELECT e.event_id, lpad(e.transaction_id::text, 20, '0') || '/' || lpad(e.global_position::text, 20, '0') AS position,
  (SELECT pg_notify('${APPENDED_CHANNEL}', max(lpad(transaction_id::text, 20, '0') || '/' || lpad(global_position::text, 20, '0'))) FROM e) AS notified
FROM e`

function check(stream: string, expected: ExpectedRevision, current: bigint): WrongExpectedVersionError | undefined {
  const actual = current < 0n ? 'no_stream' : current
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current < 0n) ||
    (expected === 'stream_exists' && current >= 0n) ||
    (typeof expected === 'bigint' && expected === current)
  return ok ? undefined : new WrongExpectedVersionError(stream, expected, actual)
}

export async function appendBatch(client: pg.PoolClient, batch: PendingAppend[]): Promise<AppendOutcome[]> {
  const streams = [...new Set(batch.map((a) => a.stream))].sort()
  await client.query('BEGIN')
  try {
    const locked = await client.query<{ stream_name: string; revision: string }>(LOCK_STREAMS_SQL, [streams])
    const revisions = new Map(locked.rows.map((r) => [r.stream_name, BigInt(r.revision)]))

    const cols = { ids: [] as string[], streams: [] as string[], revs: [] as string[], types: [] as string[], data: [] as string[], meta: [] as string[] }
    const outcomes: (AppendOutcome | { ok: true; lastEventId: string; lastRevision: bigint })[] = []
    for (const append of batch) {
      const current = revisions.get(append.stream) ?? -1n
      const error = check(append.stream, append.expectedRevision, current)
      if (error) {
        outcomes.push({ ok: false, error })
        continue
      }
      let revision = current
      for (const event of append.events) {
        revision += 1n
        cols.ids.push(event.id)
        cols.streams.push(append.stream)
        cols.revs.push(revision.toString())
        cols.types.push(event.type)
        cols.data.push(JSON.stringify(event.data))
        cols.meta.push(JSON.stringify(event.metadata))
      }
      revisions.set(append.stream, revision)
      outcomes.push({ ok: true, lastEventId: append.events[append.events.length - 1]!.id, lastRevision: revision })
    }

    const positions = new Map<string, string>()
    if (cols.ids.length > 0) {
      const touched = [...revisions.entries()].filter(([, rev]) => rev >= 0n)
      const written = await client.query<{ event_id: string; position: string }>(WRITE_EVENTS_SQL, [
        cols.ids, cols.streams, cols.revs, cols.types, cols.data, cols.meta,
        touched.map(([name]) => name), touched.map(([, rev]) => rev.toString()),
      ])
      for (const row of written.rows) positions.set(row.event_id, row.position)
    }
    await client.query('COMMIT')
    return outcomes.map((o) =>
      'lastEventId' in o
        ? { ok: true, result: { nextExpectedRevision: o.lastRevision, position: positions.get(o.lastEventId) as AppendResult['position'] } }
        : o,
    )
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

