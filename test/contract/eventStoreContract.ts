// The contract every event store adapter passes: append expectations, the typed conflict, reads,
// catch-up then live subscription, resume from a stored checkpoint, and the refusal of data the
// store could not keep or replay unchanged.
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { chainVerifier } from '../../events/integrity/chainVerifier.js'
import { chainTimeOf, contentHashOf, eventHashOf } from '../../events/integrity/eventHash.js'
import {
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  UnstorableEventError,
  WrongExpectedVersionError,
} from '../../events/store/port.js'

export const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { organizationId: 'org_test', requestId: 'req_test' },
})

export function uniqueStream(category = 'test'): string {
  return `${category}-${randomUUID().replaceAll('-', '')}`
}

/** Collects a subscription's events until `until` holds, or fails after `timeoutMs`. */
export async function collect(
  store: EventStore,
  from: Position | undefined,
  until: (events: RecordedEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = []
  let resolveDone!: () => void
  const done = new Promise<void>((r) => (resolveDone = r))
  const sub = store.subscribeToAll(
    { from },
    {
      onEvents: async (events) => {
        seen.push(...events)
        if (until(seen)) resolveDone()
      },
    },
  )
  const timer = setTimeout(resolveDone, timeoutMs)
  await done
  clearTimeout(timer)
  await sub.stop()
  return seen
}

export function eventStoreContract(t: Test, open: () => Promise<EventStore>): void {
  let store: EventStore
  t.before(async () => {
    store = await open()
  })
  t.teardown(async () => store?.close())

  t.test('append with no_stream creates the stream once', async (t) => {
    const stream = uniqueStream()
    const result = await store.appendToStream(stream, [ev('Created', { n: 1 })], { expectedRevision: 'no_stream' })
    t.equal(result.nextExpectedRevision, 0n)
    const error = await store.appendToStream(stream, [ev('Created')], { expectedRevision: 'no_stream' }).catch((e: unknown) => e)
    t.ok(error instanceof WrongExpectedVersionError, 'typed conflict error')
    t.equal((error as WrongExpectedVersionError).actual, 0n)
    t.equal((error as WrongExpectedVersionError).stream, stream)
    t.equal((await store.readStream(stream)).length, 1, 'the refused append wrote nothing')
  })

  t.test('append with an exact revision', async (t) => {
    const stream = uniqueStream()
    await store.appendToStream(stream, [ev('A'), ev('B')], { expectedRevision: 'no_stream' })
    const ok = await store.appendToStream(stream, [ev('C')], { expectedRevision: 1n })
    t.equal(ok.nextExpectedRevision, 2n)
    const stale = await store.appendToStream(stream, [ev('D')], { expectedRevision: 1n }).catch((e: unknown) => e)
    t.ok(stale instanceof WrongExpectedVersionError)
    t.equal((stale as WrongExpectedVersionError).expected, 1n)
    t.equal((stale as WrongExpectedVersionError).actual, 2n)
    const missing = await store.appendToStream(uniqueStream(), [ev('X')], { expectedRevision: 0n }).catch((e: unknown) => e)
    t.ok(missing instanceof WrongExpectedVersionError)
    t.equal((missing as WrongExpectedVersionError).actual, 'no_stream')
  })

  t.test('append with stream_exists and any', async (t) => {
    const stream = uniqueStream()
    const refused = await store.appendToStream(stream, [ev('A')], { expectedRevision: 'stream_exists' }).catch((e: unknown) => e)
    t.ok(refused instanceof WrongExpectedVersionError)
    t.equal((refused as WrongExpectedVersionError).actual, 'no_stream')
    await store.appendToStream(stream, [ev('A')], { expectedRevision: 'any' })
    const exists = await store.appendToStream(stream, [ev('B')], { expectedRevision: 'stream_exists' })
    t.equal(exists.nextExpectedRevision, 1n)
    const any = await store.appendToStream(stream, [ev('C')])
    t.equal(any.nextExpectedRevision, 2n)
  })

  t.test('read a stream in order, from a revision, and a missing stream', async (t) => {
    const stream = uniqueStream()
    await store.appendToStream(stream, [ev('A', { i: 0 }), ev('B', { i: 1 }), ev('C', { i: 2 })])
    const all = await store.readStream(stream)
    t.same(
      all.map((e) => e.type),
      ['A', 'B', 'C'],
    )
    t.same(
      all.map((e) => e.revision),
      [0n, 1n, 2n],
    )
    t.same(all[1]!.data, { i: 1 })
    t.equal(all[0]!.metadata.organizationId, 'org_test')
    t.ok(all[0]!.recordedAt instanceof Date)
    const tail = await store.readStream(stream, { fromRevision: 1n })
    t.same(
      tail.map((e) => e.type),
      ['B', 'C'],
    )
    t.same(await store.readStream(uniqueStream()), [])
    // Twelve events: revisions past 9 must still come back in numeric order.
    const long = uniqueStream()
    await store.appendToStream(
      long,
      Array.from({ length: 12 }, (_, i) => ev('N', { i })),
    )
    t.same(
      (await store.readStream(long)).map((e) => Number(e.revision)),
      Array.from({ length: 12 }, (_, i) => i),
    )
  })

  t.test('every event is linked to the one before it in its stream by a hash of its content', async (t) => {
    const stream = uniqueStream()
    const metadata = { organizationId: 'org_test', requestId: 'req_1' }
    await store.appendToStream(stream, [ev('A', { i: 0, nested: { b: 1, a: [1, 'x'] } }), ev('B', { i: 1 })])
    await store.appendToStream(stream, [{ ...ev('C', { i: 2 }), metadata }], { expectedRevision: 1n })
    await store.appendToStream(stream, [ev('D', { i: 3 })], { expectedRevision: 'any' })
    const events = await store.readStream(stream)
    t.same(
      events.map((e) => e.metadata),
      [ev('A').metadata, ev('B').metadata, metadata, ev('D').metadata],
      'the metadata reads back as given: the link is kept apart',
    )
    let previousHash: string | null = null
    for (const e of events) {
      t.match(e.hash, /^[0-9a-f]{64}$/, `revision ${e.revision} has a hash`)
      const contentHash = contentHashOf({ id: e.id, stream, type: e.type, data: e.data, metadata: e.metadata })
      const link = { contentHash, previousHash, recordedAt: chainTimeOf(e.recordedAt), revision: e.revision }
      t.equal(e.hash, eventHashOf(link), `revision ${e.revision} recomputes from its content and the hash before it`)
      previousHash = e.hash!
    }
    const verifier = chainVerifier()
    for (const e of events) verifier.add(e)
    t.match(verifier.report(), { consistent: true, verified: 4, problemCount: 0 })
    const fromAll = (await store.readAll({ maxCount: 10_000, pastRunningTransactions: true })).filter((e) => e.stream === stream)
    t.same(
      fromAll.map((e) => e.hash),
      events.map((e) => e.hash),
      'a read of all streams carries the same hashes',
    )
  })

  t.test('read all in commit order from a position', async (t) => {
    const head = await store.readAll({ maxCount: 10_000 })
    const from = head.length ? head[head.length - 1]!.position : undefined
    const s1 = uniqueStream()
    const s2 = uniqueStream()
    await store.appendToStream(s1, [ev('One')])
    await store.appendToStream(s2, [ev('Two')])
    await store.appendToStream(s1, [ev('Three')])
    // On Postgres, $all reads stop below the oldest transaction open anywhere in the cluster (other
    // test files' included), so fresh events may take a moment to become readable.
    const ours = (events: RecordedEvent[]) => events.filter((e) => e.stream === s1 || e.stream === s2)
    let after = await store.readAll({ from, maxCount: 10_000 })
    for (const until = Date.now() + 10_000; ours(after).length < 3 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 20))
      after = await store.readAll({ from, maxCount: 10_000 })
    }
    const mine = ours(after)
    t.same(
      mine.map((e) => e.type),
      ['One', 'Two', 'Three'],
    )
    for (let i = 1; i < after.length; i++)
      t.ok(store.comparePositions(after[i - 1]!.position, after[i]!.position) < 0, 'positions increase')
    const limited = await store.readAll({ from, maxCount: 1 })
    t.equal(limited.length, 1)
  })

  t.test('marks and the head: what readAll returns, without the data', async (t) => {
    const before = await store.readHead()
    const stream = uniqueStream()
    const appended = await store.appendToStream(stream, [ev('MarkOne'), ev('MarkTwo')])
    // As above: readable once no older transaction is open in the cluster.
    let head = await store.readHead()
    for (const until = Date.now() + 10_000; head?.position !== appended.position && Date.now() < until; head = await store.readHead())
      await new Promise((r) => setTimeout(r, 20))
    t.equal(head?.position, appended.position, 'the head is the last appended event')
    t.equal(head?.type, 'MarkTwo')
    t.ok(head && Math.abs(head.recordedAt.getTime() - Date.now()) < 60_000, 'recordedAt is a recent time')
    const events = await store.readAll({ from: before?.position, maxCount: 10_000 })
    const marks = await store.readAllMarks({ from: before?.position, maxCount: 10_000 })
    t.same(
      marks.map((m) => [m.id, m.type, m.position, m.recordedAt.getTime()]),
      events.map((e) => [e.id, e.type, e.position, e.recordedAt.getTime()]),
      'the same events, in the same order',
    )
    t.equal((await store.readAllMarks({ from: before?.position, maxCount: 1 })).length, 1, 'maxCount bounds the read')
    t.same(await store.readAllMarks({ from: appended.position }), [], 'nothing after the head')
    await t.rejects(store.readAllMarks({ maxCount: 10_001 }), RangeError, 'no unbounded read')
  })

  t.test('subscription catches up, signals it, then goes live', async (t) => {
    const head = await store.readAll({ maxCount: 10_000 })
    const from = head.length ? head[head.length - 1]!.position : undefined
    const stream = uniqueStream()
    await store.appendToStream(stream, [ev('Before1'), ev('Before2')])
    const seen: RecordedEvent[] = []
    let caughtUp = false
    let typesAtCaughtUp: string[] = []
    let resolveLive!: () => void
    const live = new Promise<void>((r) => (resolveLive = r))
    const sub = store.subscribeToAll(
      { from },
      {
        onEvents: async (events) => {
          seen.push(...events.filter((e) => e.stream === stream))
          if (seen.some((e) => e.type === 'After')) resolveLive()
        },
        onCaughtUp: () => {
          caughtUp = true
          typesAtCaughtUp = seen.map((e) => e.type)
        },
      },
    )
    const deadline = Date.now() + 10_000
    while (!caughtUp && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    t.ok(caughtUp, 'caught-up signal')
    t.same(typesAtCaughtUp, ['Before1', 'Before2'], 'history delivered before the signal')
    await store.appendToStream(stream, [ev('After')])
    let timer: NodeJS.Timeout | undefined
    await Promise.race([live, new Promise((r) => (timer = setTimeout(r, 10_000)))])
    clearTimeout(timer)
    await sub.stop()
    t.same(
      seen.map((e) => e.type),
      ['Before1', 'Before2', 'After'],
    )
  })

  t.test('resume from a stored checkpoint delivers only what came after', async (t) => {
    const stream = uniqueStream()
    await store.appendToStream(stream, [ev('First')])
    const firstBatch = await collect(store, undefined, (evs) => evs.some((e) => e.stream === stream))
    const checkpoint = firstBatch.find((e) => e.stream === stream)!.position
    await store.appendToStream(stream, [ev('Second'), ev('Third')])
    const resumed = await collect(store, checkpoint, (evs) => evs.filter((e) => e.stream === stream).length >= 2)
    t.same(
      resumed.filter((e) => e.stream === stream).map((e) => e.type),
      ['Second', 'Third'],
    )
    t.notOk(
      resumed.some((e) => e.position === checkpoint),
      'start position is exclusive',
    )
  })

  t.test('refuses an append it could not store or replay, and writes none of it', async (t) => {
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 10_000; i++) deep = { d: deep }
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['NUL in a value', { firstName: 'A\u0000b' }, {}],
      ['unpaired surrogate', { description: '\ud800' }, {}],
      ['NUL in a key', { metadata: { 'k\u0000': 'v' } }, {}],
      ['unpaired surrogate in a key', { metadata: { '\udfff': 'v' } }, {}],
      ['NaN', { amount: Number.NaN }, {}],
      ['Infinity', { amount: Number.NEGATIVE_INFINITY }, {}],
      ['nesting 10 000 levels deep', deep, {}],
      ['NUL in metadata', {}, { requestId: 'req\u0000' }],
    ]
    for (const [name, data, metadata] of cases) {
      const stream = uniqueStream()
      const good = ev('Fine', { ok: true })
      const bad: NewEvent = { ...ev('Poison', data), metadata: { organizationId: 'org_test', ...metadata } }
      const error = await store.appendToStream(stream, [good, bad]).catch((e: unknown) => e)
      t.ok(error instanceof UnstorableEventError, `${name}: typed refusal`)
      t.match((error as Error).message, /events\[1\]\.(data|metadata)/, `${name}: names where`)
      t.same(await store.readStream(stream), [], `${name}: nothing of the append written`)
    }
  })

  t.test('stores and replays unicode it can keep exactly as given', async (t) => {
    const stream = uniqueStream()
    const data = { name: 'Zoë 😀 \t\n \u2028 \uffff', nested: { 'ключ 😀': ['a', 1, -1.25, true, null] }, big: 2 ** 53 - 1 }
    await store.appendToStream(stream, [ev('Unicode', data)])
    const [read] = await store.readStream(stream)
    t.same(read?.data, data)
  })
}
