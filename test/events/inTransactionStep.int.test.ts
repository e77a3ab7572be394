// The Postgres adapter's in-transaction step (what inline projections run on): the step sees the
// append's events as recorded, runs in the append's transaction (its writes commit with the events,
// or neither does), a step that throws fails its own append only, even inside a group-commit batch,
// and a conflict still answers WrongExpectedVersionError without running the step.
import t from 'tap'
import pg from 'pg'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { type RecordedEvent, WrongExpectedVersionError } from '../../events/store/port.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { ev, uniqueStream } from '../contract/eventStoreContract.js'

const url = await createTestDatabase(t)
const store = await getPostgresEventStore({ connectionString: url })
const pool = new pg.Pool({ connectionString: url, max: 2 })
await pool.query('CREATE TABLE step_rows (stream text NOT NULL, revision bigint NOT NULL, type text NOT NULL)')
t.teardown(async () => {
  await pool.end()
  await store.close()
})

const rowsOf = async (stream: string) =>
  (
    await pool.query<{ revision: string; type: string }>('SELECT revision::text, type FROM step_rows WHERE stream = $1 ORDER BY revision', [
      stream,
    ])
  ).rows

/** A step writing one row per event, in the append's transaction; throws after writing when the event type says so. */
const writingStep =
  (seen: RecordedEvent[][] = []) =>
  async (connection: { query: (text: string, values?: unknown[]) => Promise<unknown> }, recorded: RecordedEvent[]) => {
    seen.push(recorded)
    for (const e of recorded) await connection.query('INSERT INTO step_rows VALUES ($1, $2, $3)', [e.stream, e.revision.toString(), e.type])
    if (recorded.some((e) => e.type === 'Poison')) throw new Error('the step failed')
  }

t.test('the step sees the events as recorded, and its rows commit with them', async (t) => {
  const stream = uniqueStream()
  const seen: RecordedEvent[][] = []
  const result = await store.appendToStream(stream, [ev('A'), ev('B')], { expectedRevision: 'no_stream', inTransaction: writingStep(seen) })
  t.equal(seen.length, 1, 'run once')
  t.same(
    seen[0]!.map((e) => [e.stream, e.revision, e.type]),
    [
      [stream, 0n, 'A'],
      [stream, 1n, 'B'],
    ],
  )
  t.equal(seen[0]![1]!.position, result.position, 'the last event carries the append position')
  t.ok(seen[0]![0]!.recordedAt instanceof Date, 'with the time it was recorded')
  const stored = await store.readStream(stream)
  t.same(
    stored.map((e) => [e.id, e.position]),
    seen[0]!.map((e) => [e.id, e.position]),
    'ids and positions as read back',
  )
  t.same(await rowsOf(stream), [
    { revision: '0', type: 'A' },
    { revision: '1', type: 'B' },
  ])
})

t.test('a step that throws: neither the events nor its rows are stored, and its neighbours in the batch commit', async (t) => {
  const [poisoned, healthy] = [uniqueStream(), uniqueStream()]
  // Appended together, so the group committer puts them in one batch.
  const [bad, good] = await Promise.allSettled([
    store.appendToStream(poisoned, [ev('Poison')], { inTransaction: writingStep() }),
    store.appendToStream(healthy, [ev('Fine')], { inTransaction: writingStep() }),
  ])
  t.equal(bad.status, 'rejected')
  t.match(bad.status === 'rejected' ? bad.reason : undefined, { message: 'the step failed' })
  t.equal(good.status, 'fulfilled')
  t.same(await store.readStream(poisoned), [], 'no event without its rows')
  t.same(await rowsOf(poisoned), [], 'no row without its event')
  t.equal((await store.readStream(healthy)).length, 1)
  t.same(await rowsOf(healthy), [{ revision: '0', type: 'Fine' }])
})

t.test('a conflict answers WrongExpectedVersionError and runs no step', async (t) => {
  const stream = uniqueStream()
  await store.appendToStream(stream, [ev('First')])
  const seen: RecordedEvent[][] = []
  await t.rejects(
    store.appendToStream(stream, [ev('Stale')], { expectedRevision: 'no_stream', inTransaction: writingStep(seen) }),
    WrongExpectedVersionError,
  )
  t.same(seen, [], 'the step did not run')
  t.same(await rowsOf(stream), [])
})
