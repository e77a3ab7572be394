// `snapshots rebuild` and `snapshots status` as child processes against a real Postgres: a stream's
// snapshot is taken from its events; a rebuild of all replaces a corrupt one and one of another
// version, and drops one whose aggregate takes none; status counts them per category with their
// versions. The aggregate that opts in is the test's funds aggregate, put in the CLI's catalog by a
// module it loads first.
import { isDeepStrictEqual } from 'node:util'
import path from 'node:path'
import t from 'tap'
import { parseEventData } from '../../events/catalog.js'
import { openSnapshotDatabase } from '../../commands/runtime/postgresSnapshotStore.js'
import { fundsSnapshot } from '../../domain/balance-account/fundsSnapshot.js'
import { appendFundsHistory } from '../harness/fundsHistory.js'
import { registerSnapshotFunds, snapshotFundsDecider, snapshotFundsStream, testAccountId } from '../harness/snapshotFunds.js'
import { startTestApp } from '../harness/testApp.js'
import { jsonLines, runCli, stderrError, stdoutJson } from './fixtures/runCli.js'

registerSnapshotFunds()
// Asynchronous projections: the test aggregate's events are funds events of accounts that have no balance
// row, which the balances projector refuses (inline, that refusal would fail the history's appends).
const h = await startTestApp(t, { PROJECTIONS: 'async' }, { webhooks: { dispatcher: false } })
const env = { DATABASE_URL: h.runtime.databaseUrl, PROJECTIONS: 'async' }
const withFunds = { imports: [path.join(import.meta.dirname, 'fixtures/registerSnapshotFunds.ts')] }
const db = openSnapshotDatabase(h.runtime.pool)
const row = (stream: string) => db.selectFrom('aggregate_snapshots').selectAll().where('stream', '=', stream).executeTakeFirst()
// The state folded from the stream's first event (never from a snapshot or a kept state).
const foldOf = async (stream: string) =>
  (await h.runtime.store.readStream(stream, { maxCount: 10_000 })).reduce(
    (state, e) => snapshotFundsDecider.evolve(state, { type: e.type, data: parseEventData(e) } as never),
    snapshotFundsDecider.initialState(),
  )

const a = snapshotFundsStream(testAccountId('clia'))
const b = snapshotFundsStream(testAccountId('clib'))
await appendFundsHistory(h.runtime.store, testAccountId('clia'), 250)
await appendFundsHistory(h.runtime.store, testAccountId('clib'), 40)

type Taken = { stream: string; revision: string; version: number; events: number }
type Status = {
  categories: { category: string; snapshots: number; oldestVersion: number; newestVersion: number; codecVersion: number | null }[]
}

t.test('rebuild one stream: its snapshot is the fold of its events', async (t) => {
  const run = await runCli(['snapshots', 'rebuild', '--stream', a], env, withFunds)
  t.equal(run.code, 0, run.stderr)
  t.same(jsonLines<Taken>(run), [{ stream: a, revision: '249', version: 1, events: 250 }])
  const stored = await row(a)
  t.ok(stored && isDeepStrictEqual(fundsSnapshot.decode(JSON.parse(stored.state)), await foldOf(a)), 'the fold of its 250 events')
})

t.test('rebuild all: corrupt and other-version rows replaced, a row of an aggregate without snapshots dropped', async (t) => {
  await db.updateTable('aggregate_snapshots').set({ state: '{"broken' }).where('stream', '=', a).execute()
  await db.insertInto('aggregate_snapshots').values({ stream: b, revision: '39', version: 7, state: '{"from":"a future codec"}' }).execute()
  await db.insertInto('aggregate_snapshots').values({ stream: 'retired-x_1', revision: '3', version: 1, state: '{}' }).execute()

  const before = await runCli(['snapshots', 'status'], env, withFunds)
  t.equal(before.code, 0, before.stderr)
  t.match(stdoutJson<Status>(before).categories, [
    { category: 'retired', snapshots: 1, codecVersion: null },
    { category: 'test_funds', snapshots: 2, oldestVersion: 1, newestVersion: 7, codecVersion: 1 },
  ])

  const run = await runCli(['snapshots', 'rebuild'], env, withFunds)
  t.equal(run.code, 0, run.stderr)
  t.same(jsonLines(run), [
    { stream: 'retired-x_1', dropped: true, reason: 'its aggregate takes no snapshots' },
    { stream: a, revision: '249', version: 1, events: 250 },
    { stream: b, revision: '39', version: 1, events: 40 },
  ])
  for (const stream of [a, b]) {
    const stored = await row(stream)
    t.ok(stored && isDeepStrictEqual(fundsSnapshot.decode(JSON.parse(stored.state)), await foldOf(stream)), `${stream} rebuilt`)
  }
  t.equal(await row('retired-x_1'), undefined)

  const after = await runCli(['snapshots', 'status'], env, withFunds)
  t.same(
    stdoutJson<Status>(after).categories.map(({ category, snapshots, oldestVersion, codecVersion }) => ({
      category,
      snapshots,
      oldestVersion,
      codecVersion,
    })),
    [{ category: 'test_funds', snapshots: 2, oldestVersion: 1, codecVersion: 1 }],
  )

  const category = await runCli(['snapshots', 'rebuild', '--category', 'test_funds'], env, withFunds)
  t.equal(category.code, 0, category.stderr)
  t.same(
    jsonLines<Taken>(category).map((l) => l.stream),
    [a, b],
  )
})

t.test('refusals', async (t) => {
  const both = await runCli(['snapshots', 'rebuild', '--stream', a, '--category', 'test_funds'], env, withFunds)
  t.equal(both.code, 2)
  t.match(stderrError(both), { error: 'usage_error' })
  const notSnapshotted = await runCli(['snapshots', 'rebuild', '--category', 'customer'], env, withFunds)
  t.equal(notSnapshotted.code, 1)
  t.match(stderrError(notSnapshotted), { error: 'not_snapshotted', category: 'customer' })
  const empty = await runCli(['snapshots', 'rebuild', '--stream', snapshotFundsStream(testAccountId('none'))], env, withFunds)
  t.equal(empty.code, 1)
  t.match(stderrError(empty), { error: 'stream_not_found' })
  // The catalog as shipped: the test's aggregate is unknown there, so its rows show no codec version.
  const plain = await runCli(['snapshots', 'status'], env)
  t.equal(plain.code, 0, plain.stderr)
  t.match(stdoutJson<Status>(plain).categories, [{ category: 'test_funds', codecVersion: null }])
})
