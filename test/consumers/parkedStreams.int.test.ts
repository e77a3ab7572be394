// Issue 24, point 3, on the consumer runtime itself (real Postgres, real event store): an event one
// consumer of a group cannot handle parks that consumer's stream after PARKING.attempts failures;
// the group's other consumers apply it, every other stream carries on, and the stream's later events
// wait as 'behind' letters. A transient failure never parks. A replay applies a stream's letters in
// order and clears them, or keeps a still-failing one parked with one attempt more. A workflow-like
// (prepare) consumer parks and replays the same way. Two processes, and replays racing live
// appends, keep every stream's order.
import t from 'tap'
import { sql } from 'kysely'
import { readCheckpointStates } from '../../events/consumers/checkpoints.js'
import { PARKING } from '../../events/consumers/consumerGuard.js'
import { createConsumerRuntime } from '../../events/consumers/consumerRuntime.js'
import { listFailures } from '../../events/consumers/consumerRecords.js'
import { listParkedReplays } from '../../events/consumers/parkedReplays.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { Position } from '../../events/store/port.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { ev, uniqueStream } from '../contract/eventStoreContract.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { eventually } from './fixtures/poison.js'
import {
  POISON_MESSAGE,
  applyConsumer,
  createOrderTables,
  cure,
  handledOrder,
  lettersOf,
  poison,
  prepareConsumer,
} from './fixtures/orderedConsumers.js'

type Line = { fields: Record<string, unknown>; message: string }

const url = await createTestDatabase(t)
const { db } = openReadDatabase(url, 8)
t.teardown(() => db.destroy())
await migrateToLatest(db)
await createOrderTables(db)
const store = await getPostgresEventStore({ connectionString: url })
t.teardown(() => store.close())

function capture() {
  const lines: Line[] = []
  const fieldsOf = (obj: unknown): Record<string, unknown> =>
    typeof obj === 'object' && obj !== null ? Object.fromEntries(Object.entries(obj)) : {}
  return {
    lines,
    log: {
      info: (message: string) => void lines.push({ fields: {}, message }),
      error: (obj: unknown, message?: string) => void lines.push({ fields: fieldsOf(obj), message: message ?? '' }),
    },
  }
}

const BACKOFF = { initialMs: 10, maxMs: 40 }
const TYPES = ['Noted']

function group(name: string, consumers: Consumer<ReadDatabase>[]) {
  const { lines, log } = capture()
  const runtime = createConsumerRuntime({ name, store, db, consumers, log, backoff: BACKOFF })
  t.teardown(() => runtime.stop())
  return { runtime, lines }
}

async function append(stream: string, count = 1): Promise<Position> {
  let last: Position | undefined
  for (let i = 0; i < count; i++) last = (await store.appendToStream(stream, [ev('Noted')])).position
  return last!
}

type Tap = Pick<typeof t, 'ok'>
/** Polled: a wait answers false at once while the group is failing, which it is until it parks. */
const reached = async (t: Tap, runtime: { reached: (p: Position) => boolean }, position: Position) =>
  t.ok(
    await eventually(async () => (runtime.reached(position) ? true : undefined), 15_000, 'the last event'),
    'the group reached the last event',
  )

// ---- one apply group: a (poisoned on some streams) and b (never) ----
const a = applyConsumer('test_a', TYPES)
const b = applyConsumer('test_b', TYPES)
const first = group('test_group', [a, b])
const S1 = uniqueStream('parked')
const S2 = uniqueStream('flowing')
const S3 = uniqueStream('contended')

t.test('a consumer that keeps failing on one stream parks it for itself alone; the rest flows', async (t) => {
  await poison(db, 'test_a', S1, 'poison')
  await append(S1, 2)
  await append(S2)
  await append(S1)
  const last = await append(S2)
  await first.runtime.start()
  await reached(t, first.runtime, last)

  t.same(await handledOrder(db, 'test_b', S1), [0, 1, 2], 'the group’s other consumer applied the poisoned stream, in order')
  t.same(await handledOrder(db, 'test_a', S2), [0, 1], 'the failing consumer went on with another stream')
  t.same(await handledOrder(db, 'test_a', S1), [], 'and applied nothing of the parked one')
  const letters = await lettersOf(db, 'test_a', S1)
  t.same(
    letters.map((l) => [l.reason, l.attempts]),
    [
      ['failed', PARKING.attempts],
      ['behind', 0],
      ['behind', 0],
    ],
    'the failing event is a dead letter, and every later event of its stream waits behind it',
  )
  t.match(letters[0]!.error, new RegExp(`^test_a: Error: ${POISON_MESSAGE}`), 'the letter names the consumer and the error')
  t.notMatch(letters[0]!.error, /secret-value/, 'without the values the error quoted')
  t.same(await lettersOf(db, 'test_b', S1), [], 'nothing parked for the other consumer')
  t.equal((await readCheckpointStates(db)).get('test_a')?.parkedLetters, 3, 'the checkpoint row counts the letters')

  const attempts = first.lines.filter((l) => l.fields.eventId === letters[0]!.event_id && typeof l.fields.attempt === 'number')
  t.same(
    attempts.map((l) => [l.fields.attempt, l.fields.handler]),
    [
      [1, 'test_a'],
      [2, 'test_a'],
      [3, 'test_a'],
    ],
    'one line per attempt, naming the consumer',
  )
  t.equal(attempts[2]!.message, 'consumer failed on an event; parking its stream for that consumer')
  t.ok(
    first.lines.some((l) => l.message.startsWith('consumer parked a stream') && l.fields.stream === S1 && l.fields.handler === 'test_a'),
    'the park is logged',
  )
  t.notOk(JSON.stringify(first.lines).includes('secret-value'), 'no value in the log')
  t.same(first.runtime.health(), { status: 'ok' }, 'the group is healthy: it is not stuck')
  t.notOk(
    (await listFailures(db)).some((f) => f.consumer === 'test_group'),
    'no failure record left',
  )

  const later = await append(S1)
  const other = await append(S2)
  await reached(t, first.runtime, other)
  t.same(
    (await lettersOf(db, 'test_a', S1)).map((l) => l.reason),
    ['failed', 'behind', 'behind', 'behind'],
    'a live event of it waits too',
  )
  t.same(await handledOrder(db, 'test_a', S2), [0, 1, 2])
  t.same(await handledOrder(db, 'test_b', S1), [0, 1, 2, 3])
  t.ok(later)
})

t.test('a transient failure (the database contended) never parks: the group backs off until it clears', async (t) => {
  await poison(db, 'test_a', S3, 'transient')
  const last = await append(S3, 2)
  const waiting = first.runtime.waitFor(last, 60_000)
  await eventually(
    async () => (first.lines.filter((l) => l.fields.transient === true).length >= PARKING.attempts * 2 ? true : undefined),
    20_000,
    'many transient attempts',
  )
  t.same(await lettersOf(db, 'test_a', S3), [], 'not parked after twice the parking attempts')
  t.equal(first.runtime.health().status, 'failing', 'the group shows as failing meanwhile')
  await cure(db, 'test_a', S3)
  await eventually(async () => ((await handledOrder(db, 'test_a', S3)).length === 2 ? true : undefined), 10_000, 'the stream applied')
  t.same(await handledOrder(db, 'test_a', S3), [0, 1], 'in order, once the contention cleared')
  t.same(await lettersOf(db, 'test_a', S3), [])
  await waiting
})

t.test('a replay of a letter that still fails keeps it parked, with one attempt more; the ones behind stay', async (t) => {
  const [outcome, ...more] = await first.runtime.replayParked({ all: true, consumer: 'test_a' }, 'test:alice')
  t.same(more, [])
  t.match(outcome, { consumer: 'test_a', group: 'test_group', stream: S1, replayed: [], skipped: [], remaining: 4 })
  t.match(outcome!.failed?.error, /^test_a: Error: cannot handle/)
  const letters = await lettersOf(db, 'test_a', S1)
  t.same(
    letters.map((l) => [l.reason, l.attempts]),
    [
      ['failed', PARKING.attempts + 1],
      ['behind', 0],
      ['behind', 0],
      ['behind', 0],
    ],
  )
  t.same(await handledOrder(db, 'test_a', S1), [], 'nothing applied')
  const [audit] = await listParkedReplays(db)
  t.match(audit, {
    consumer: 'test_a',
    stream: S1,
    actor: 'test:alice',
    outcome: 'failed',
    replayedEventIds: [],
    failedEventId: letters[0]!.event_id,
  })
})

t.test('once fixed, a replay of any of its letters applies the stream in order and clears it; it then flows live', async (t) => {
  await cure(db, 'test_a', S1)
  const letters = await lettersOf(db, 'test_a', S1)
  const outcomes = await first.runtime.replayParked({ eventId: letters[2]!.event_id }, 'test:bob')
  t.same(
    outcomes.map((o) => [o.consumer, o.stream, o.replayed, o.remaining, o.failed]),
    [['test_a', S1, letters.map((l) => l.event_id), 0, undefined]],
    'every letter of that stream, in order',
  )
  t.same(await handledOrder(db, 'test_a', S1), [0, 1, 2, 3])
  t.same(await lettersOf(db, 'test_a', S1), [])
  t.equal((await readCheckpointStates(db)).get('test_a')?.parkedLetters, 0)
  const last = await append(S1)
  await reached(t, first.runtime, last)
  t.same(await handledOrder(db, 'test_a', S1), [0, 1, 2, 3, 4], 'the next event applied live, after them')
  t.match((await listParkedReplays(db))[0], { consumer: 'test_a', actor: 'test:bob', outcome: 'replayed' })
  t.same(await first.runtime.replayParked({ all: true }, 'test:bob'), [], 'nothing left to replay')
})

t.test('a workflow-like consumer (prepare) parks its stream, the group goes on, and a replay runs the steps in order', async (t) => {
  const p = prepareConsumer('test_p', TYPES, db)
  const q = applyConsumer('test_q', TYPES)
  const second = group('test_prepare_group', [p, q])
  const S5 = uniqueStream('workflow')
  const S6 = uniqueStream('workflow')
  await poison(db, 'test_p', S5, 'poison')
  await append(S5, 2)
  await append(S6)
  const last = await append(S5)
  await second.runtime.start()
  await reached(t, second.runtime, last)
  t.same(await handledOrder(db, 'test_p', S6), [0], 'another stream’s step ran')
  t.same(await handledOrder(db, 'test_p', S5), [], 'no step of the parked stream ran, not even a later one')
  t.same(await handledOrder(db, 'test_q', S5), [0, 1, 2], 'the group’s other consumer applied it all')
  t.same(
    (await lettersOf(db, 'test_p', S5)).map((l) => l.reason),
    ['failed', 'behind', 'behind'],
  )
  await cure(db, 'test_p', S5)
  const [outcome] = await second.runtime.replayParked({ all: true }, 'test')
  t.equal(outcome?.remaining, 0)
  t.same(await handledOrder(db, 'test_p', S5), [0, 1, 2], 'the steps ran in order')
  const next = await append(S5)
  await reached(t, second.runtime, next)
  t.same(await handledOrder(db, 'test_p', S5), [0, 1, 2, 3], 'and the next one live')
  await second.runtime.stop()
})

t.test('two processes, and replays racing live appends, keep every stream in order', async (t) => {
  const c = applyConsumer('test_c', TYPES)
  const w = prepareConsumer('test_w', TYPES, db)
  // Two runtimes of one group on one database: two processes, as the server beside another server.
  const one = group('test_two', [applyConsumer('test_c', TYPES), prepareConsumer('test_w', TYPES, db)])
  const two = group('test_two', [c, w])
  const S7 = uniqueStream('raced')
  const S8 = uniqueStream('raced')
  await poison(db, 'test_c', S7, 'poison')
  await poison(db, 'test_w', S7, 'poison')
  await one.runtime.start()
  await two.runtime.start()
  await append(S7, 3)
  let last = await append(S8, 2)
  await reached(t, one.runtime, last)
  await reached(t, two.runtime, last)
  t.same(
    (await lettersOf(db, 'test_c', S7)).map((l) => l.reason),
    ['failed', 'behind', 'behind'],
  )
  t.same(
    (await lettersOf(db, 'test_w', S7)).map((l) => l.reason),
    ['failed', 'behind', 'behind'],
  )

  await cure(db, 'test_c', S7)
  await cure(db, 'test_w', S7)
  const LIVE = 25
  const appending = (async () => {
    for (let i = 0; i < LIVE; i++) {
      last = await append(i % 2 === 0 ? S7 : S8)
      await new Promise((resolve) => setTimeout(resolve, 3))
    }
  })()
  const replaying = async (runtime: typeof one.runtime) => {
    for (let i = 0; i < 6; i++) {
      await runtime.replayParked({ all: true }, 'test')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  await Promise.all([appending, replaying(one.runtime), replaying(two.runtime)])
  await reached(t, one.runtime, last)
  await reached(t, two.runtime, last)
  const s7 = 3 + Math.ceil(LIVE / 2)
  const inOrder = Array.from({ length: s7 }, (_, i) => i)
  t.same(await handledOrder(db, 'test_c', S7), inOrder, 'the projector-like consumer applied the stream once each, in order')
  t.same(await handledOrder(db, 'test_w', S7), inOrder, 'the workflow-like consumer ran its steps in order')
  t.same(await lettersOf(db, 'test_c', S7), [])
  t.same(await lettersOf(db, 'test_w', S7), [])
  const counts = await readCheckpointStates(db)
  t.same([counts.get('test_c')?.parkedLetters, counts.get('test_w')?.parkedLetters], [0, 0], 'the counts agree')
  const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM consumer_parked`.execute(db)
  t.equal(rows[0]?.n, 0, 'no letter anywhere')
})
