// Snapshots in the command runtime on a real Postgres (events and snapshots): taken every
// everyEvents after an append and off the request path, a cold load reads the snapshot and only
// the events after it, a snapshot of another version or one that does not decode is ignored and
// replaced, the higher revision wins, a stream past maxEventsPerLoad loads through its snapshot,
// and what a commandId can and cannot see with a snapshot. The aggregate: a balance account's
// funds (test/harness/snapshotFunds.ts), snapshotted every 10 events here.
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import { createCommandRuntime } from '../../../commands/runtime/commandRuntime.js'
import { COMMAND_LIMITS } from '../../../commands/runtime/commandLimits.js'
import { StreamTooLongError, loadAggregate } from '../../../commands/runtime/loadAggregate.js'
import { createPostgresStreamLock } from '../../../commands/runtime/postgresStreamLock.js'
import type { StreamLock } from '../../../commands/runtime/streamLock.js'
import { createPostgresSnapshotStore, openSnapshotDatabase } from '../../../commands/runtime/postgresSnapshotStore.js'
import type { NewSnapshot, SnapshotStore } from '../../../commands/runtime/snapshotStore.js'
import { SNAPSHOT_LIMITS, type Snapshotting, drainSaves, snapshotting } from '../../../commands/runtime/snapshots.js'
import { takeSnapshot } from '../../../commands/runtime/takeSnapshot.js'
import { type Funds, availableIn, committedIn } from '../../../domain/balance-account/funds.js'
import type { FundsEvent } from '../../../domain/balance-account/fundsEvents.js'
import { fundsSnapshot } from '../../../domain/balance-account/fundsSnapshot.js'
import type { Decider, Evolver } from '../../../domain/decider.js'
import { DomainError } from '../../../domain/errors.js'
import type { EventStore } from '../../../events/store/port.js'
import { getPostgresEventStore } from '../../../events/store/postgres/index.js'
import { migrateToLatest, openReadDatabase } from '../../../projections/database.js'
import { appendFundsHistory } from '../../harness/fundsHistory.js'
import {
  type AccountFundsCommand,
  registerSnapshotFunds,
  snapshotFundsDecider,
  snapshotFundsStream,
  testAccountId,
} from '../../harness/snapshotFunds.js'
import { createTestDatabase } from '../../harness/testDatabase.js'

registerSnapshotFunds()
const url = await createTestDatabase(t)
const { db, pool } = openReadDatabase(url)
t.teardown(() => db.destroy())
await migrateToLatest(db)
const store = await getPostgresEventStore({ connectionString: url })
t.teardown(() => store.close())
const snapshotDb = openSnapshotDatabase(pool)
const snapshotStore = createPostgresSnapshotStore(snapshotDb)

const EVERY = 10
const decider: Decider<Funds, AccountFundsCommand, FundsEvent> = {
  ...snapshotFundsDecider,
  snapshot: { ...fundsSnapshot, everyEvents: EVERY },
}
const NOW = '2026-11-24T08:00:00.000Z'
const origin = { organizationId: 'org_x', requestId: 'req_1', actor: 'key_1' }

type Warning = { details: Record<string, unknown>; message: string }

/**
 * A service process as the runtime sees it: a command runtime of its own (so no state kept from
 * another "process"), counting the events it reads and the snapshots it reads; `streamLock` as a
 * server takes turns with the others.
 */
function startProcess(snapshots: SnapshotStore = snapshotStore, streamLock?: StreamLock) {
  const counts = { events: 0, snapshotReads: 0 }
  const warnings: Warning[] = []
  const own: EventStore = {
    ...store,
    readStream: async (stream, options) => {
      const page = await store.readStream(stream, options)
      counts.events += page.length
      return page
    },
  }
  const counted: SnapshotStore = {
    ...snapshots,
    read: (stream) => {
      counts.snapshotReads++
      return snapshots.read(stream)
    },
  }
  const using: Snapshotting = snapshotting(counted, { warn: (details, message) => warnings.push({ details, message }) })
  const commands = createCommandRuntime({ store: own, snapshots: using, ...(streamLock ? { streamLock } : {}) })
  const run = (command: AccountFundsCommand, options: { commandId?: string; decider?: typeof decider } = {}) =>
    commands.handle(options.decider ?? decider, snapshotFundsStream(command.accountId), command, {
      ...origin,
      ...(options.commandId ? { commandId: options.commandId } : {}),
    })
  return { store: own, counts, warnings, snapshotting: using, run, saved: () => drainSaves(using) }
}

const credit = (accountId: string, cause: string, amountMinor = 100_000n): AccountFundsCommand => ({
  type: 'CreditFunds',
  accountId,
  cause,
  currency: 'USD',
  amountMinor,
  now: NOW,
})
const hold = (accountId: string, holdId: string, amountMinor = 100n): AccountFundsCommand => ({
  type: 'PlaceHold',
  accountId,
  holdId,
  currency: 'USD',
  amountMinor,
  now: NOW,
})

const row = (stream: string) => snapshotDb.selectFrom('aggregate_snapshots').selectAll().where('stream', '=', stream).executeTakeFirst()
/** The state folded from the first event, with no snapshot: what every snapshot must equal. */
const folded = async (stream: string) => (await loadAggregate(store, decider as Evolver<Funds, FundsEvent>, stream)).state

t.test('taken after everyEvents, off the request path; a cold load reads only the events after it', async (t) => {
  const acc = testAccountId('taken')
  const stream = snapshotFundsStream(acc)
  const first = startProcess()
  await first.run(credit(acc, 'dep_1'))
  for (let i = 1; i < EVERY - 1; i++) await first.run(hold(acc, `h${i}`))
  await first.saved()
  t.equal(await row(stream), undefined, 'none at 9 events')
  const tenth = await first.run(hold(acc, 'h9'))
  await first.saved()
  const taken = await row(stream)
  t.match(taken, { revision: '9', version: 1 }, 'taken at the 10th event (revision 9)')
  t.ok(isDeepStrictEqual(fundsSnapshot.decode(JSON.parse(taken!.state)), tenth.state), 'of the state the command left')
  t.equal(first.counts.snapshotReads, 1, 'the first command read the (missing) snapshot; the kept state served the rest')

  for (let i = 10; i < 13; i++) await first.run(hold(acc, `h${i}`))
  await first.saved()
  t.match(await row(stream), { revision: '9' }, 'the next is due 10 events later')

  const second = startProcess()
  const result = await second.run(hold(acc, 'h13'))
  t.equal(second.counts.snapshotReads, 1, 'one snapshot read')
  t.equal(second.counts.events, 3, 'and the 3 events after it (revisions 10 to 12)')
  t.ok(isDeepStrictEqual(result.state, await folded(stream)), 'the same state as a fold from the first event')
  await second.run(hold(acc, 'h14'))
  t.equal(second.counts.snapshotReads, 1, 'the kept state wins over the snapshot afterwards')
  t.equal(second.counts.events, 3, 'nothing new to read: this process wrote the last event')
  await second.saved()
})

t.test('a snapshot of another codec version is ignored (logged once) and replaced', async (t) => {
  const acc = testAccountId('version')
  const stream = snapshotFundsStream(acc)
  const first = startProcess()
  await first.run(credit(acc, 'dep_1'))
  for (let i = 1; i < EVERY + 2; i++) await first.run(hold(acc, `h${i}`))
  await first.saved()
  t.match(await row(stream), { revision: '9', version: 1 })

  const v2 = { ...decider, snapshot: { ...decider.snapshot!, version: 2 } }
  const upgraded = startProcess()
  const result = await upgraded.run(hold(acc, 'h_v2'), { decider: v2 })
  t.equal(upgraded.counts.events, 12, 'folded from the first event')
  t.match(upgraded.warnings, [{ details: { stream, version: 1, codecVersion: 2 }, message: /another codec version/ }])
  t.ok(isDeepStrictEqual(result.state, await folded(stream)))
  await upgraded.saved()
  t.match(await row(stream), { revision: '12', version: 2 }, 'replaced after the next append')

  // Once per snapshot: loads that read it again do not log it again.
  const v3 = { ...decider, snapshot: { ...decider.snapshot!, version: 3 } }
  const later = startProcess()
  await loadAggregate(later.store, v3, stream, { snapshots: later.snapshotting })
  await loadAggregate(later.store, v3, stream, { snapshots: later.snapshotting })
  t.equal(later.warnings.length, 1, 'logged once')
})

t.test('a corrupt snapshot is ignored and replaced; the command never fails for it', async (t) => {
  for (const [name, state, message] of [
    ['unparsable', '{"accountId": "acc_', /unreadable/],
    ['wrong shape', '{"accountId":"acc_corrupt","balances":"all of it"}', /does not decode/],
  ] as const) {
    const acc = testAccountId(`corrupt${name}`)
    const stream = snapshotFundsStream(acc)
    const first = startProcess()
    await first.run(credit(acc, 'dep_1'))
    for (let i = 1; i < EVERY; i++) await first.run(hold(acc, `h${i}`))
    await first.saved()
    await snapshotDb.updateTable('aggregate_snapshots').set({ state }).where('stream', '=', stream).execute()

    const next = startProcess()
    const result = await next.run(hold(acc, 'h_after'))
    t.equal(result.events.length, 1, `${name}: the command ran`)
    t.equal(next.counts.events, EVERY, `${name}: folded from the first event`)
    t.match(next.warnings, [{ details: { stream }, message }], `${name}: logged`)
    t.notMatch(JSON.stringify(next.warnings), /all of it/, `${name}: never the stored state in the log`)
    await next.saved()
    const replaced = await row(stream)
    t.equal(replaced?.revision, String(EVERY), `${name}: replaced after the next append`)
    t.ok(isDeepStrictEqual(fundsSnapshot.decode(JSON.parse(replaced!.state)), result.state))
  }
})

t.test('the higher revision wins, whichever process saves last', async (t) => {
  const stream = snapshotFundsStream(testAccountId('race'))
  const at = (revision: bigint, cause: string): NewSnapshot => ({
    stream,
    revision,
    version: 1,
    state: { accountId: testAccountId('race'), currencies: ['USD'], balances: [], openHolds: [], closedHolds: [cause] },
  })
  await snapshotStore.save(at(30n, 'thirty'))
  await snapshotStore.save(at(20n, 'twenty'))
  t.match(await row(stream), { revision: '30', state: /thirty/ }, 'a late, older save changes nothing')
  await snapshotStore.save(at(30n, 'thirty again'))
  t.match(await row(stream), { state: /"thirty"/ }, 'nor one at the same revision')
  await Promise.all([40n, 35n, 38n].map((r) => snapshotStore.save(at(r, `r${r}`))))
  t.match(await row(stream), { revision: '40', state: /r40/ }, 'concurrent saves: the highest stays')
  await snapshotStore.replace(at(5n, 'rebuilt'))
  t.match(await row(stream), { revision: '5', state: /rebuilt/ }, 'a rebuild replaces whatever is stored')

  // Two processes writing one stream (taking turns under the stream lock, as two servers do), each
  // taking snapshots when due: the newest state stays.
  const acc = testAccountId('two_processes')
  const locks = [0, 1].map(() => createPostgresStreamLock({ connectionString: url, onError: () => undefined }))
  for (const lock of locks) t.teardown(() => lock.close())
  const processes = locks.map((lock) => startProcess(snapshotStore, lock))
  await processes[0]!.run(credit(acc, 'dep_1', 10n ** 9n))
  await Promise.all(
    processes.map((p, n) =>
      (async () => {
        for (let i = 0; i < 3 * EVERY; i++) await p.run(hold(acc, `p${n}_h${i}`))
      })(),
    ),
  )
  await Promise.all(processes.map((p) => p.saved()))
  const last = await row(snapshotFundsStream(acc))
  const events = await store.readStream(snapshotFundsStream(acc))
  t.ok(Number(last?.revision) >= events.length - EVERY, `a recent snapshot (revision ${last?.revision} of ${events.length - 1})`)
  const upTo = await loadAggregate(store, decider as Evolver<Funds, FundsEvent>, snapshotFundsStream(acc), {})
  t.ok(upTo.revision !== undefined)
  const atSnapshot = events
    .slice(0, Number(last!.revision) + 1)
    .reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as FundsEvent), decider.initialState())
  t.ok(isDeepStrictEqual(fundsSnapshot.decode(JSON.parse(last!.state)), atSnapshot), 'it is the fold of the events up to its revision')
})

t.test('a stream past maxEventsPerLoad loads through its snapshot', async (t) => {
  const acc = testAccountId('long')
  const stream = snapshotFundsStream(acc)
  const events = COMMAND_LIMITS.maxEventsPerLoad + 5
  const filled = await appendFundsHistory(store, acc, events)
  t.equal(filled.revision, BigInt(events - 1))
  // As the runtime saves one after an append: the state the events fold to, at their revision.
  await snapshotStore.save({ stream, revision: filled.revision, version: fundsSnapshot.version, state: fundsSnapshot.encode(filled.state) })
  const cold = startProcess()
  const result = await cold.run(hold(acc, 'h_late', 1_000n))
  t.equal(cold.counts.events, 0, 'nothing to fold past the snapshot')
  t.equal(availableIn(result.state, 'USD'), availableIn(filled.state, 'USD') - 1_000n)
  t.equal(committedIn(result.state, 'USD'), committedIn(filled.state, 'USD') + 1_000n)
  t.ok(result.state.closedHolds.size > 0, 'with the recent closed holds')
})

t.test('without a usable snapshot, a load folds at most maxEvents events', async (t) => {
  const acc = testAccountId('capped')
  await appendFundsHistory(store, acc, 30)
  const p = startProcess()
  await t.rejects(
    loadAggregate(p.store, decider, snapshotFundsStream(acc), { snapshots: p.snapshotting, maxEvents: 29 }),
    StreamTooLongError,
  )
  const loaded = await loadAggregate(p.store, decider, snapshotFundsStream(acc), { snapshots: p.snapshotting, maxEvents: 30 })
  t.equal(loaded.revision, 29n)
  const taken = await takeSnapshot(store, snapshotStore, decider, snapshotFundsStream(acc))
  t.match(taken, { revision: '29', version: 1, events: 30 })
  const after = await loadAggregate(p.store, decider, snapshotFundsStream(acc), { snapshots: p.snapshotting, maxEvents: 0 })
  t.equal(after.revision, 29n, 'through its snapshot, nothing left to fold')
})

t.test('commandId: seen after the snapshot; before it, the decider refuses the repeat by its own key', async (t) => {
  const acc = testAccountId('command_ids')
  const stream = snapshotFundsStream(acc)
  const p = startProcess()
  await p.run(credit(acc, 'dep_1'))
  const first = await p.run(hold(acc, 'h_once', 700n), { commandId: 'cmd_h_once' })
  t.equal(first.events.length, 1)
  const again = await p.run(hold(acc, 'h_once', 700n), { commandId: 'cmd_h_once' })
  t.same(again.events, [], 'issued again while after the snapshot: found by its commandId, nothing appended')

  for (let i = 0; i < EVERY; i++) await p.run(hold(acc, `h${i}`))
  await p.saved()
  t.ok(Number((await row(stream))?.revision) >= 2, 'a snapshot now covers the first hold')
  const cold = startProcess()
  const repeat = await cold.run(hold(acc, 'h_once', 700n), { commandId: 'cmd_h_once' }).catch((e: unknown) => e)
  t.ok(
    repeat instanceof DomainError && repeat.code === 'hold_exists',
    'the commandId is not seen; the decider refuses the repeated hold id',
  )
  const state = await folded(stream)
  t.equal(committedIn(state, 'USD'), 700n + BigInt(EVERY) * 100n, 'nothing held twice')
})

t.test('saves never hold up a command: at most maxSavesInFlight at once, and a failed one is logged and forgotten', async (t) => {
  const started: (() => void)[] = []
  const hanging: SnapshotStore = {
    read: async () => undefined,
    save: () => new Promise<void>((resolve) => started.push(resolve)),
    replace: async () => undefined,
  }
  const p = startProcess(hanging)
  const accounts = Array.from({ length: SNAPSHOT_LIMITS.maxSavesInFlight + 2 }, (_, i) => testAccountId(`hang${i}`))
  for (const acc of accounts) {
    await p.run(credit(acc, 'dep_1'))
    for (let i = 1; i < EVERY; i++) await p.run(hold(acc, `h${i}`))
  }
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(started.length, SNAPSHOT_LIMITS.maxSavesInFlight, 'every command answered; only the bounded number of saves started')
  for (const resolve of started.splice(0)) resolve()
  await p.saved()
  await p.run(hold(accounts.at(-1)!, 'h_retry'))
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(started.length, 1, 'a save that could not start is tried again at the next append')
  for (const resolve of started.splice(0)) resolve()
  await p.saved()

  const failing = startProcess({ ...hanging, save: async () => Promise.reject(new Error('database unavailable')) })
  const acc = testAccountId('failing_save')
  await failing.run(credit(acc, 'dep_1'))
  for (let i = 1; i < EVERY; i++) await failing.run(hold(acc, `h${i}`))
  await failing.saved()
  t.match(failing.warnings, [
    { details: { stream: snapshotFundsStream(acc), error: /database unavailable/ }, message: 'snapshot save failed' },
  ])
  const after = await failing.run(hold(acc, 'h_after'))
  t.equal(after.events.length, 1, 'commands go on')
})
