// The consumer runtime with a consumer of its own (not a projector): it catches up from its stored
// checkpoint, signals when caught up, lets a caller wait for a position, stops and starts again
// without applying an event twice, and replays from zero after a checkpoint reset.
import t from 'tap'
import { sql } from 'kysely'
import { readCheckpoint, resetCheckpoint } from '../../events/consumers/checkpoints.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import { createConsumerRuntime } from '../../events/consumers/consumerRuntime.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { ev } from '../contract/eventStoreContract.js'
import { createTestDatabase } from '../harness/testDatabase.js'

const url = await createTestDatabase(t)
const { db } = openReadDatabase(url, 4)
t.teardown(() => db.destroy())
await migrateToLatest(db)
const store = await getPostgresEventStore({ connectionString: url })
t.teardown(() => store.close())
// The consumer's effect: one row per event, with a primary key, so applying one twice would fail.
await sql`CREATE TABLE test_noted (event_id uuid PRIMARY KEY, position text NOT NULL)`.execute(db)
const noted = async () =>
  (await sql<{ event_id: string }>`SELECT event_id FROM test_noted ORDER BY position`.execute(db)).rows.map((r) => r.event_id)

const consumer: Consumer<ReadDatabase> = {
  name: 'test_noter',
  handles: new Set(['Noted']),
  apply: async (trx, events) => {
    for (const e of events) await sql`INSERT INTO test_noted VALUES (${e.id}, ${e.position})`.execute(trx)
  },
}
const silent = { info: () => undefined, error: () => undefined }
const runtime = createConsumerRuntime({ name: 'test_noters', store, db, consumers: [consumer], log: silent })
t.teardown(() => runtime.stop())

t.test('catches up, signals it, and answers waits', async (t) => {
  const first = [ev('Noted'), ev('Ignored'), ev('Noted')]
  const appended = await store.appendToStream('test-1', first)
  t.notOk(runtime.caughtUp())
  await runtime.start()
  await runtime.whenCaughtUp()
  t.ok(runtime.caughtUp(), 'the caught-up signal')
  t.ok(await runtime.waitFor(appended.position, 10_000))
  t.same(await noted(), [first[0]!.id, first[2]!.id], 'the handled events, in order')
  t.equal(await readCheckpoint(db, consumer.name), appended.position, 'the checkpoint committed with them')
  const later = await store.appendToStream('test-1', [ev('Noted')], { expectedRevision: 2n })
  t.ok(await runtime.waitFor(later.position, 10_000), 'a live event is waited for')
  t.equal((await noted()).length, 3)
  t.equal(await runtime.waitFor(later.position, 0), true, 'a reached position answers at once')
})

t.test('stopped, it applies nothing; started again, it resumes where it stood', async (t) => {
  await runtime.stop()
  t.notOk(runtime.running())
  const whileStopped = await store.appendToStream('test-2', [ev('Noted'), ev('Noted')])
  t.equal(await runtime.waitFor(whileStopped.position, 200), false, 'a wait times out while stopped')
  t.equal((await noted()).length, 3, 'nothing applied while stopped')
  await runtime.start()
  t.ok(await runtime.waitFor(whileStopped.position, 10_000))
  t.equal((await noted()).length, 5, 'each event applied once (the primary key would refuse a second)')
})

t.test('a checkpoint reset replays from zero', async (t) => {
  await runtime.stop()
  await sql`DELETE FROM test_noted`.execute(db)
  await resetCheckpoint(db, consumer.name)
  await runtime.start()
  await runtime.whenCaughtUp()
  const head = await readCheckpoint(db, consumer.name)
  t.ok(await runtime.waitFor(head, 10_000))
  t.equal((await noted()).length, 5, 'every handled event applied again, once')
})
