// The event store contract on a real Postgres, and the $all gap races only Postgres can have.
import t from 'tap'
import pg from 'pg'
import { randomUUID } from 'node:crypto'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import type { EventStore, RecordedEvent } from '../../events/store/port.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { collect, eventStoreContract, ev, uniqueStream } from '../contract/eventStoreContract.js'
import { protectedEventStoreContract } from '../contract/protectedEventStoreContract.js'

const url = await createTestDatabase(t)

t.test('contract', async (t) => {
  eventStoreContract(t, () => getPostgresEventStore({ connectionString: url }))
})

t.test('event codec contract', async (t) => {
  protectedEventStoreContract(t, () => getPostgresEventStore({ connectionString: url }))
})

/** A writer that opens a transaction, inserts an event and waits: the slow side of a race. */
async function slowWriter(stream: string, type: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('BEGIN')
  await client.query(
    `INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata) VALUES ($1, $2, 0, $3, '{}', '{}')`,
    [randomUUID(), stream, type],
  )
  return {
    commit: async () => {
      await client.query('COMMIT')
      await client.end()
    },
    rollback: async () => {
      await client.query('ROLLBACK')
      await client.end()
    },
  }
}

t.test('gap races on $all', async (t) => {
  const store: EventStore = await getPostgresEventStore({ connectionString: url })
  t.teardown(() => store.close())
  const head = await store.readAll({ maxCount: 10_000 })
  let from = head.length ? head[head.length - 1]!.position : undefined

  t.test('a slow transaction committing after a fast one is not skipped', async (t) => {
    const slowStream = uniqueStream('slow')
    const fastStream = uniqueStream('fast')
    const slow = await slowWriter(slowStream, 'Slow')
    await store.appendToStream(fastStream, [ev('Fast')])
    // While the slow transaction is open, neither is readable: reading past it would skip it.
    const during = await store.readAll({ from, maxCount: 100 })
    t.notOk(
      during.some((e) => e.stream === fastStream),
      'fast event held back behind the open transaction',
    )
    await slow.commit()
    const seen = await collect(store, from, (evs) => evs.some((e) => e.stream === fastStream) && evs.some((e) => e.stream === slowStream))
    const mine = seen.filter((e) => e.stream === slowStream || e.stream === fastStream)
    t.same(
      mine.map((e) => e.type),
      ['Slow', 'Fast'],
      'both, exactly once, in commit order',
    )
    from = seen[seen.length - 1]!.position
  })

  t.test('several slow transactions', async (t) => {
    const streams = [uniqueStream('s1'), uniqueStream('s2'), uniqueStream('s3')]
    const slows = []
    for (const s of streams) slows.push(await slowWriter(s, 'Slow'))
    const fast = uniqueStream('fast')
    await store.appendToStream(fast, [ev('Fast')])
    const seenPromise = collect(store, from, (evs) => [...streams, fast].every((s) => evs.some((e) => e.stream === s)))
    // Commit in reverse order of opening, with pauses, while the subscriber is live.
    for (const slow of slows.reverse()) {
      await new Promise((r) => setTimeout(r, 30))
      await slow.commit()
    }
    const seen = await seenPromise
    const mine = seen.filter((e) => [...streams, fast].includes(e.stream))
    t.equal(mine.length, 4, 'each event exactly once')
    t.same(new Set(mine.map((e) => e.stream)), new Set([...streams, fast]))
    from = seen[seen.length - 1]!.position
  })

  t.test('a rolled-back append leaves nothing and blocks nothing', async (t) => {
    const doomed = uniqueStream('doomed')
    const slow = await slowWriter(doomed, 'Doomed')
    const after = uniqueStream('after')
    await store.appendToStream(after, [ev('After')])
    await slow.rollback()
    const seen = await collect(store, from, (evs) => evs.some((e) => e.stream === after))
    t.notOk(
      seen.some((e) => e.stream === doomed),
      'rolled-back event never delivered',
    )
    t.equal(seen.filter((e) => e.stream === after).length, 1)
    from = seen[seen.length - 1]!.position
  })

  t.test('10 concurrent writers reach a $all subscriber exactly once, in order', async (t) => {
    const writers = 10
    const perWriter = 50
    const streams = Array.from({ length: writers }, () => uniqueStream('writer'))
    const expected = writers * perWriter
    const seenPromise = collect(store, from, (evs) => evs.filter((e) => streams.includes(e.stream)).length >= expected, 30_000)
    await Promise.all(
      streams.map(async (stream) => {
        for (let i = 0; i < perWriter; i++) {
          await store.appendToStream(stream, [ev('Written', { i })], { expectedRevision: i === 0 ? 'no_stream' : BigInt(i - 1) })
        }
      }),
    )
    const seen: RecordedEvent[] = (await seenPromise).filter((e) => streams.includes(e.stream))
    t.equal(seen.length, expected, 'every event delivered')
    t.equal(new Set(seen.map((e) => e.id)).size, expected, 'none twice')
    for (const stream of streams) {
      const revisions = seen.filter((e) => e.stream === stream).map((e) => Number(e.revision))
      t.same(
        revisions,
        Array.from({ length: perWriter }, (_, i) => i),
        `${stream} in revision order`,
      )
    }
    const sorted = [...seen].sort((a, b) => store.comparePositions(a.position, b.position))
    t.same(
      seen.map((e) => e.id),
      sorted.map((e) => e.id),
      'delivered in position order',
    )
  })
})

t.test('minBatchIntervalMs: a live subscriber that can wait reads fewer, bigger batches, and misses nothing', async (t) => {
  const store = await getPostgresEventStore({ connectionString: url })
  t.teardown(() => store.close())
  const stream = uniqueStream('interval')
  const appends = 30
  const subscribe = (minBatchIntervalMs: number | undefined) => {
    const batches: number[] = []
    const seen: RecordedEvent[] = []
    const sub = store.subscribeToAll(
      { minBatchIntervalMs },
      {
        onEvents: async (events) => {
          const mine = events.filter((e) => e.stream === stream)
          if (mine.length > 0) batches.push(mine.length)
          seen.push(...mine)
        },
      },
    )
    return { batches, seen, sub }
  }
  const eager = subscribe(undefined)
  const patient = subscribe(200)
  const started = Date.now()
  for (let i = 0; i < appends; i++) {
    await store.appendToStream(stream, [ev(`E${i}`)])
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const deadline = Date.now() + 10_000
  while ((eager.seen.length < appends || patient.seen.length < appends) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const elapsedMs = Date.now() - started
  await eager.sub.stop()
  await patient.sub.stop()
  t.same(
    patient.seen.map((e) => e.type),
    eager.seen.map((e) => e.type),
    'the same events, in the same order',
  )
  t.equal(patient.seen.length, appends, 'every event delivered')
  // At most one read per interval, whatever the load; an eager reader's count depends on the load (a busy machine
  // coalesces its wake-ups too), so it is only an upper bound here.
  const perInterval = Math.ceil(elapsedMs / 200) + 1
  t.ok(patient.batches.length <= perInterval, `at most one batch per 200 ms (${patient.batches.length} in ${elapsedMs} ms)`)
  t.ok(patient.batches.length <= eager.batches.length, `no more batches (${patient.batches.length} against ${eager.batches.length})`)
})
