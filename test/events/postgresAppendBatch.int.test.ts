// One group-commit batch: appends to one stream are checked in queue order, a rejected append
// leaves its neighbours alone, and a bad event (duplicate id) fails only its own append.
import t from 'tap'
import pg from 'pg'
import { appendBatch } from '../../events/store/postgres/appendBatch.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { WrongExpectedVersionError } from '../../events/store/port.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { ev, uniqueStream } from '../contract/eventStoreContract.js'

const url = await createTestDatabase(t)
const store = await getPostgresEventStore({ connectionString: url })
const pool = new pg.Pool({ connectionString: url, max: 2 })
t.teardown(async () => {
  await pool.end()
  await store.close()
})

t.test('appends in one batch are decided in queue order', async (t) => {
  const [a, b, c] = [uniqueStream(), uniqueStream(), uniqueStream()]
  const outcomes = await appendBatch(pool, [
    { stream: a, events: [ev('A0')], expectedRevision: 'no_stream' },
    { stream: a, events: [ev('A1'), ev('A2')], expectedRevision: 0n },
    { stream: a, events: [ev('Stale')], expectedRevision: 0n },
    { stream: b, events: [ev('B')], expectedRevision: 'stream_exists' },
    { stream: c, events: [ev('C0'), ev('C1')], expectedRevision: 'any' },
    { stream: a, events: [ev('A3')], expectedRevision: 2n },
  ])
  t.same(outcomes.map((o) => o.ok), [true, true, false, false, true, true])
  const stale = outcomes[2]
  if (stale && !stale.ok) {
    t.ok(stale.error instanceof WrongExpectedVersionError)
    t.equal((stale.error as WrongExpectedVersionError).actual, 2n, 'sees the revision the earlier append in the batch left')
  }
  const missing = outcomes[3]
  if (missing && !missing.ok) t.equal((missing.error as WrongExpectedVersionError).actual, 'no_stream')
  const revisions = outcomes.map((o) => (o.ok ? o.result.nextExpectedRevision : undefined))
  t.same(revisions, [0n, 2n, undefined, undefined, 1n, 3n])
  t.same((await store.readStream(a)).map((e) => e.type), ['A0', 'A1', 'A2', 'A3'])
  t.same(await store.readStream(b), [], 'nothing written for the rejected append')
  const positions = outcomes.flatMap((o) => (o.ok ? [o.result.position] : []))
  t.same([...positions].sort(), positions, 'positions follow queue order')
  const last = (await store.readStream(a)).at(-1)!
  t.equal(outcomes[5]!.ok && outcomes[5]!.result.position, last.position, 'the returned position is the last event\'s')
})

t.test('a duplicate event id fails only its own append', async (t) => {
  const first = ev('First')
  const s1 = uniqueStream()
  await store.appendToStream(s1, [first])
  const s2 = uniqueStream()
  const s3 = uniqueStream()
  const results = await Promise.allSettled([
    store.appendToStream(s2, [ev('Fine')]),
    store.appendToStream(s3, [{ ...ev('Dup'), id: first.id }]),
    store.appendToStream(s2, [ev('AlsoFine')]),
  ])
  t.same(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled'])
  t.same((await store.readStream(s2)).map((e) => e.type), ['Fine', 'AlsoFine'])
  t.same(await store.readStream(s3), [])
})
