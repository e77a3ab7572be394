// Group commit on Postgres: one batch checks each append against its stream's last revision and a
// rejected append leaves its neighbours alone; an append racing another process's is decided again
// once that one ends; the committer keeps appends to one stream in queue order; two stores (two
// processes) racing on one stream never both win; a bad event (duplicate id) fails only its own append.
import t, { type Test } from 'tap'
import pg from 'pg'
import { appendBatch } from '../../events/store/postgres/appendBatch.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { WrongExpectedVersionError } from '../../events/store/port.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { ev, uniqueStream } from '../contract/eventStoreContract.js'

const url = await createTestDatabase(t)
const store = await getPostgresEventStore({ connectionString: url })
const other = await getPostgresEventStore({ connectionString: url })
const pool = new pg.Pool({ connectionString: url, max: 2 })
t.teardown(async () => {
  await pool.end()
  await other.close()
  await store.close()
})

function actualOf(t: Test, outcome: { ok: boolean; error?: Error } | undefined): unknown {
  if (!outcome || outcome.ok) return undefined
  t.ok(outcome.error instanceof WrongExpectedVersionError, 'rejected with the typed conflict')
  return (outcome.error as WrongExpectedVersionError).actual
}

t.test('one batch decides each append against its own stream', async (t) => {
  const [fresh, missing, anyStream, behind, exact] = [uniqueStream(), uniqueStream(), uniqueStream(), uniqueStream(), uniqueStream()]
  await store.appendToStream(behind, [ev('B0'), ev('B1')])
  await store.appendToStream(exact, [ev('E0'), ev('E1')])
  const outcomes = await appendBatch(pool, [
    { stream: fresh, events: [ev('F0')], expectedRevision: 'no_stream' },
    { stream: missing, events: [ev('M')], expectedRevision: 'stream_exists' },
    { stream: anyStream, events: [ev('A0'), ev('A1')], expectedRevision: 'any' },
    { stream: behind, events: [ev('Stale')], expectedRevision: 0n },
    { stream: exact, events: [ev('E2'), ev('E3')], expectedRevision: 1n },
  ])
  t.same(
    outcomes.map((o) => o.ok),
    [true, false, true, false, true],
  )
  t.equal(actualOf(t, outcomes[1]), 'no_stream')
  t.equal(actualOf(t, outcomes[3]), 1n, 'reports the revision it found')
  t.same(
    outcomes.map((o) => (o.ok ? o.result.nextExpectedRevision : undefined)),
    [0n, undefined, 1n, undefined, 3n],
  )
  t.same(await store.readStream(missing), [], 'nothing written for a rejected append')
  t.same(
    (await store.readStream(behind)).map((e) => e.type),
    ['B0', 'B1'],
  )
  t.same(
    (await store.readStream(exact)).map((e) => e.type),
    ['E0', 'E1', 'E2', 'E3'],
  )
  const positions = outcomes.flatMap((o) => (o.ok ? [o.result.position] : []))
  t.same([...positions].sort(), positions, 'positions follow batch order')
  const last = (await store.readStream(exact)).at(-1)!
  t.equal(outcomes[4]!.ok && outcomes[4]!.result.position, last.position, "the returned position is the last event's")
})

/** Another process's append to `stream` at `revision`, left open: the unique index makes ours wait for it. */
async function openAppend(stream: string, revision: number) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('BEGIN')
  await client.query(
    `INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata) VALUES (gen_random_uuid(), $1, $2, ` +
      `'Theirs', '{}', '{}')`,
    [stream, revision],
  )
  return async (how: 'COMMIT' | 'ROLLBACK') => {
    await client.query(how)
    await client.end()
  }
}

t.test('an append racing an uncommitted one to the same stream is decided again once it ends', async (t) => {
  const [exact, anyStream, rolledBack] = [uniqueStream(), uniqueStream(), uniqueStream()]
  for (const s of [exact, anyStream, rolledBack]) await store.appendToStream(s, [ev('Mine0')])
  const ends = [await openAppend(exact, 1), await openAppend(anyStream, 1), await openAppend(rolledBack, 1)]
  // Each waits on the index entry the open transaction holds for revision 1.
  const racing = [
    appendBatch(pool, [{ stream: exact, events: [ev('Mine1')], expectedRevision: 0n }]),
    appendBatch(pool, [{ stream: anyStream, events: [ev('Mine1')], expectedRevision: 'any' }]),
  ]
  const alsoRacing = store.appendToStream(rolledBack, [ev('Mine1')], { expectedRevision: 0n })
  await new Promise((resolve) => setTimeout(resolve, 100))
  await ends[0]!('COMMIT')
  await ends[1]!('COMMIT')
  await ends[2]!('ROLLBACK')
  const [exactOutcomes, anyOutcomes] = await Promise.all(racing)
  const [exactOutcome, anyOutcome] = [exactOutcomes?.[0], anyOutcomes?.[0]]
  t.equal(actualOf(t, exactOutcome), 1n, 'an exact expectation that lost reports the revision that won')
  t.ok(anyOutcome?.ok && anyOutcome.result.nextExpectedRevision === 2n, "'any' lands after the winner")
  t.equal((await alsoRacing).nextExpectedRevision, 1n, 'a rolled-back rival leaves the revision to us')
  t.same(
    (await store.readStream(exact)).map((e) => e.type),
    ['Mine0', 'Theirs'],
  )
  t.same(
    (await store.readStream(anyStream)).map((e) => e.type),
    ['Mine0', 'Theirs', 'Mine1'],
  )
  t.same(
    (await store.readStream(rolledBack)).map((e) => e.type),
    ['Mine0', 'Mine1'],
  )
})

t.test('an append rejected by a batch reports the revision it found, after the batch wrote the rest', async (t) => {
  const [ahead, fine] = [uniqueStream(), uniqueStream()]
  await store.appendToStream(ahead, [ev('A0'), ev('A1'), ev('A2')])
  const outcomes = await appendBatch(pool, [
    { stream: fine, events: [ev('F0')], expectedRevision: 'no_stream' },
    { stream: ahead, events: [ev('Late')], expectedRevision: 0n },
    { stream: ahead + '-new', events: [ev('X')], expectedRevision: 'stream_exists' },
  ])
  t.same(
    outcomes.map((o) => o.ok),
    [true, false, false],
  )
  t.equal(actualOf(t, outcomes[1]), 2n)
  t.equal(actualOf(t, outcomes[2]), 'no_stream')
  t.same(
    (await store.readStream(fine)).map((e) => e.type),
    ['F0'],
  )
})

t.test('a batch never holds one stream twice', async (t) => {
  const s = uniqueStream()
  await t.rejects(
    appendBatch(pool, [
      { stream: s, events: [ev('A')], expectedRevision: 'any' },
      { stream: s, events: [ev('B')], expectedRevision: 'any' },
    ]),
    RangeError,
  )
  t.same(await store.readStream(s), [])
})

t.test('appends to one stream commit in queue order', async (t) => {
  const [a, b, c] = [uniqueStream(), uniqueStream(), uniqueStream()]
  // Not awaited one by one: all are queued before the first commit.
  const results = await Promise.allSettled([
    store.appendToStream(a, [ev('A0')], { expectedRevision: 'no_stream' }),
    store.appendToStream(a, [ev('A1'), ev('A2')], { expectedRevision: 0n }),
    store.appendToStream(a, [ev('Stale')], { expectedRevision: 0n }),
    store.appendToStream(b, [ev('B')], { expectedRevision: 'stream_exists' }),
    store.appendToStream(c, [ev('C0'), ev('C1')], { expectedRevision: 'any' }),
    store.appendToStream(a, [ev('A3')], { expectedRevision: 2n }),
  ])
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled'],
  )
  const stale = results[2]
  if (stale?.status === 'rejected') t.equal((stale.reason as WrongExpectedVersionError).actual, 2n, 'sees what the earlier appends left')
  t.same(
    results.map((r) => (r.status === 'fulfilled' ? r.value.nextExpectedRevision : undefined)),
    [0n, 2n, undefined, undefined, 1n, 3n],
  )
  t.same(
    (await store.readStream(a)).map((e) => e.type),
    ['A0', 'A1', 'A2', 'A3'],
  )
})

t.test('two stores racing on one stream', async (t) => {
  const s = uniqueStream()
  // 'any' from both sides, the stream created by the race itself: every append lands once.
  const appends = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? store : other).appendToStream(s, [ev(`E${i}`)]))
  const revisions = (await Promise.all(appends)).map((r) => r.nextExpectedRevision)
  t.same(
    [...revisions].sort((x, y) => (x < y ? -1 : 1)),
    Array.from({ length: 30 }, (_, i) => BigInt(i)),
    'each revision once',
  )
  t.equal((await store.readStream(s, { maxCount: 100 })).length, 30)
  // The same exact revision from both sides: exactly one wins.
  const [x, y] = await Promise.allSettled([
    store.appendToStream(s, [ev('Mine')], { expectedRevision: 29n }),
    other.appendToStream(s, [ev('Theirs')], { expectedRevision: 29n }),
  ])
  t.same([x!.status, y!.status].sort(), ['fulfilled', 'rejected'])
  const loser = x!.status === 'rejected' ? x! : y!
  if (loser.status === 'rejected') t.ok(loser.reason instanceof WrongExpectedVersionError, 'the loser gets the typed conflict')
  t.equal((await store.readStream(s, { maxCount: 100 })).length, 31)
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
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  )
  t.same(
    (await store.readStream(s2)).map((e) => e.type),
    ['Fine', 'AlsoFine'],
  )
  t.same(await store.readStream(s3), [])
})

t.test("the bench's baseline (hashChain: false) writes no hash; the default store links every event", async (t) => {
  const unchained = await getPostgresEventStore({ connectionString: url, hashChain: false })
  t.teardown(() => unchained.close())
  const [plain, linked] = [uniqueStream(), uniqueStream()]
  await unchained.appendToStream(plain, [ev('A'), ev('B')])
  await store.appendToStream(linked, [ev('A'), ev('B')])
  const hashes = async (stream: string) =>
    (await pool.query('SELECT content_hash, event_hash FROM es_events WHERE stream_name = $1 ORDER BY stream_revision', [stream])).rows.map(
      (r) => [r.content_hash !== null, r.event_hash !== null],
    )
  t.same(await hashes(plain), [
    [false, false],
    [false, false],
  ])
  t.same(await hashes(linked), [
    [true, true],
    [true, true],
  ])
})
