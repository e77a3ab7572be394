// Group read on Postgres (events/store/postgres/groupRead.ts): stream reads issued together share
// one statement, and each still gets exactly what its own query gives: its stream only, from its
// revision, at most its count, in order; a tail longer than a batch carries is read whole; an
// unknown stream is empty; a bad count is refused alone.
import t from 'tap'
import pg from 'pg'
import { GROUP_READ_LIMITS, createGroupReader } from '../../events/store/postgres/groupRead.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { readStream } from '../../events/store/postgres/reads.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { ev, uniqueStream } from '../contract/eventStoreContract.js'

const url = await createTestDatabase(t)
const store = await getPostgresEventStore({ connectionString: url })
const pool = new pg.Pool({ connectionString: url, max: 4 })
t.teardown(async () => {
  await pool.end()
  await store.close()
})

const LONG = GROUP_READ_LIMITS.maxRowsPerBatchedRead * 2 + 3
const streams = Array.from({ length: 12 }, () => uniqueStream())
const long = uniqueStream()
for (const [i, stream] of streams.entries())
  await store.appendToStream(
    stream,
    Array.from({ length: (i % 4) + 1 }, (_, n) => ev(`S${i}E${n}`)),
  )
for (let n = 0; n < LONG; n += 50)
  await store.appendToStream(
    long,
    Array.from({ length: Math.min(50, LONG - n) }, (_, k) => ev(`L${n + k}`)),
  )

t.test('reads issued together each get what their own query gives', async (t) => {
  const reader = createGroupReader(pool)
  const asks = [
    ...streams.map((stream, i) => ({ stream, from: BigInt(i % 3), count: 1000 })),
    ...streams.map((stream) => ({ stream, from: 0n, count: 2 })),
    { stream: long, from: 0n, count: 10_000 },
    { stream: long, from: 5n, count: GROUP_READ_LIMITS.maxRowsPerBatchedRead },
    { stream: long, from: 7n, count: GROUP_READ_LIMITS.maxRowsPerBatchedRead + 1 },
    { stream: uniqueStream(), from: 0n, count: 1000 },
  ]
  const together = await Promise.all(asks.map((a) => reader.read(a.stream, a.from, a.count)))
  const alone = await Promise.all(asks.map((a) => readStream(pool, a.stream, a.from, a.count)))
  t.same(together, alone, 'the same events, in the same order, for every read')
  t.equal(together[streams.length * 2]!.length, LONG, 'a long tail is read whole')
  t.equal(together[streams.length * 2 + 2]!.length, GROUP_READ_LIMITS.maxRowsPerBatchedRead + 1)
  t.same(together.at(-1), [], 'an unknown stream is empty')
})

t.test('through the store: concurrent reads and a refused count', async (t) => {
  const reads = await Promise.all(streams.map((s) => store.readStream(s, { fromRevision: 1n })))
  t.same(
    reads.map((events) => events.length),
    streams.map((_, i) => i % 4),
  )
  await t.rejects(store.readStream(streams[0]!, { maxCount: 0 }), RangeError)
  t.equal((await store.readStream(streams[3]!)).length, 4, 'a refused read leaves the others alone')
})
