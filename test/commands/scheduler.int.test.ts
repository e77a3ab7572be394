// The durable scheduler on real Postgres: scheduling is idempotent by id and checks the command;
// two scheduler instances on two pools racing over many due rows fire each exactly once; a failing
// command is retried with exponential back-off, then parked for an operator, who can send it back;
// a row that can never run is parked at once; due verification sessions expire once each.
import t from 'tap'
import { expiryTimerId, verificationExpiryScheduling } from '../../commands/customers/verificationExpiry.js'
import { listParkedCommands, retryParkedCommand } from '../../commands/scheduler/parkedCommands.js'
import { runDueCommands, type SchedulerDeps } from '../../commands/scheduler/runDueCommands.js'
import type { LoadedCommand, SchedulableRegistry } from '../../commands/scheduler/schedulableCommands.js'
import { scheduleCommand } from '../../commands/scheduler/scheduleCommand.js'
import { timerConsumers } from '../../commands/scheduler/timerConsumers.js'
import { openSchedulerDatabase } from '../../commands/scheduler/schema.js'
import { allWorkflows } from '../../commands/workflows/allWorkflows.js'
import { createWorkflowRunner } from '../../commands/workflows/workflowRunner.js'
import { openReadDatabase } from '../../projections/database.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

const h = await startTestApp(t, { VERIFICATION_SESSION_TTL_MS: '1000' })
const { schedulerDb: db, store, commands } = h.runtime
const quiet = { error: () => undefined }
const errors: { obj: object; msg: string }[] = []
const recordingLog = { error: (obj: object, msg: string) => void errors.push({ obj, msg }) }

/** A row for a test aggregate (the table takes any name; only the registry knows what runs). */
async function insertRow(id: string, aggregate: string, command: unknown, dueAt: Date) {
  await db
    .insertInto('scheduled_commands')
    .values({
      id,
      organization_id: h.org.organizationId,
      aggregate,
      stream: `probe-${id}`,
      command: JSON.stringify(command),
      due_at: dueAt,
      next_attempt_at: dueAt,
    })
    .execute()
}
const rowOf = (id: string) => db.selectFrom('scheduled_commands').selectAll().where('id', '=', id).executeTakeFirst()
const clear = () => db.deleteFrom('scheduled_commands').execute()

t.test('scheduling: the same id twice is a no-op; the command is checked on the way in', async (t) => {
  await clear()
  const request = {
    id: 'timer-1',
    organizationId: 'org_1',
    aggregate: 'customer' as const,
    stream: 'customer-cus_1',
    dueAt: new Date(Date.now() + 60_000),
    command: { type: 'ExpireVerificationSession' as const, organizationId: 'org_1', customerId: 'cus_1', sessionId: 'vsess_1' },
  }
  t.equal(await scheduleCommand(db, request), true, 'added')
  t.equal(await scheduleCommand(db, { ...request, dueAt: new Date() }), false, 'a second time: nothing')
  const row = await rowOf('timer-1')
  t.equal(row?.due_at.toISOString(), request.dueAt.toISOString(), 'the first due time stands')
  t.match(row, { status: 'PENDING', attempts: 0, last_error: null, stream: 'customer-cus_1', aggregate: 'customer' })
  t.same(row?.command, request.command, 'the command as JSON')
  const bad = { ...request, id: 'timer-2', command: { ...request.command, sessionId: '' } }
  await t.rejects(scheduleCommand(db, bad), { name: 'ZodError' }, 'not a command of the aggregate')
  await t.rejects(scheduleCommand(db, { ...request, id: 'x'.repeat(201) }), RangeError, 'id too long')
  await t.rejects(scheduleCommand(db, { ...request, id: 'timer-3', dueAt: new Date('nope') }), RangeError, 'no due time')
  t.notOk(await rowOf('timer-2'), 'nothing stored for a refused command')
})

t.test('two scheduler instances on two pools race over 400 due rows: each fires exactly once', async (t) => {
  await clear()
  const fired = new Map<string, string[]>()
  /** A test aggregate whose commands record which instance ran them, after a short random pause. */
  const probe = (instance: string): SchedulableRegistry => ({
    probe: {
      load(json: unknown): LoadedCommand {
        if (typeof json !== 'object' || json === null || !('n' in json)) throw new Error('not a probe command')
        return async ({ context }) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
          const id = context.commandId ?? 'missing'
          fired.set(id, [...(fired.get(id) ?? []), instance])
          return 1
        }
      },
    },
  })
  const rows = 400
  const past = new Date(Date.now() - 1_000)
  for (let i = 0; i < rows; i++) await insertRow(`race-${i}`, 'probe', { n: i }, past)
  const second = openReadDatabase(h.runtime.databaseUrl, 10)
  const secondScheduler = openSchedulerDatabase(second.pool)
  t.teardown(() => second.db.destroy())
  const worker = async (deps: SchedulerDeps) => {
    for (let pass = 0; pass < 50; pass++) if ((await runDueCommands(deps)).fired === 0 && pass > 0) return
  }
  // Three concurrent workers per instance, each instance on its own pool (as two processes would be).
  const a = { db, commands, log: recordingLog, aggregates: probe('a'), limits: { batchSize: 5 } }
  const b = { db: secondScheduler, commands, log: recordingLog, aggregates: probe('b'), limits: { batchSize: 5 } }
  await Promise.all([worker(a), worker(b), worker(a), worker(b), worker(a), worker(b)])
  t.equal(fired.size, rows, 'every row fired')
  const twice = [...fired].filter(([, by]) => by.length !== 1)
  t.same(twice, [], 'none fired twice')
  const byInstance = (name: string) => [...fired.values()].filter((by) => by[0] === name).length
  t.ok(byInstance('a') > 0 && byInstance('b') > 0, `both instances fired rows (a ${byInstance('a')}, b ${byInstance('b')})`)
  t.equal((await db.selectFrom('scheduled_commands').select('id').execute()).length, 0, 'every fired row is gone')
  t.same(errors, [], 'no failures')
})

t.test('a failing command backs off exponentially, is parked after the last attempt, and an operator can send it back', async (t) => {
  await clear()
  errors.length = 0
  let failing = true
  let runs = 0
  const flaky: SchedulableRegistry = {
    probe: {
      load: () => async () => {
        runs++
        // The message quotes a value, as library errors do: it must not reach the row or the log.
        if (failing) throw new Error('upstream refused "tax-id-123-45-6789"')
        return 1
      },
    },
  }
  const t0 = new Date('2030-01-01T00:00:00.000Z')
  let now = t0
  const limits = { maxAttempts: 3, backoffBaseMs: 1_000, backoffMaxMs: 1_500 }
  const deps = { db, commands, log: recordingLog, aggregates: flaky, limits, clock: () => now }
  await insertRow('flaky', 'probe', { n: 1 }, t0)
  const at = (ms: number) => new Date(t0.getTime() + ms)

  t.same(await runDueCommands(deps), { fired: 0, retried: 1, parked: 0 }, 'first failure: retried')
  let row = await rowOf('flaky')
  t.match(row, { status: 'PENDING', attempts: 1 })
  t.equal(row?.next_attempt_at.toISOString(), at(1_000).toISOString(), 'next attempt after the base delay')
  t.equal(row?.last_error, 'Error: upstream refused "…"', 'the failure, without the value it quoted')
  now = at(999)
  t.same(await runDueCommands(deps), { fired: 0, retried: 0, parked: 0 }, 'not before its next attempt')
  now = at(1_000)
  t.same(await runDueCommands(deps), { fired: 0, retried: 1, parked: 0 }, 'second failure: retried')
  row = await rowOf('flaky')
  t.equal(row?.next_attempt_at.toISOString(), at(2_500).toISOString(), 'twice the base, capped at the maximum')
  now = at(2_500)
  t.same(await runDueCommands(deps), { fired: 0, retried: 0, parked: 1 }, 'third failure: parked')
  row = await rowOf('flaky')
  t.match(row, { status: 'PARKED', attempts: 3 })
  now = at(3_600_000)
  t.same(await runDueCommands(deps), { fired: 0, retried: 0, parked: 0 }, 'a parked row is not claimed again')
  t.equal(runs, 3, 'three attempts in all')
  t.equal(errors.length, 3, 'each failure logged')
  t.match(errors.at(-1), { obj: { scheduledCommand: 'flaky', attempts: 3 }, msg: /parked/ })
  t.notOk(JSON.stringify(errors).includes('tax-id'), 'no value in the log')

  const parked = await listParkedCommands(db)
  t.match(parked, [{ id: 'flaky', aggregate: 'probe', attempts: 3, lastError: 'Error: upstream refused "…"' }], 'operators see it')
  t.equal(await retryParkedCommand(db, 'flaky', now), true, 'sent back')
  t.equal(await retryParkedCommand(db, 'flaky', now), false, 'only a parked row is sent back')
  failing = false
  t.same(await runDueCommands(deps), { fired: 1, retried: 0, parked: 0 }, 'runs again, and succeeds')
  t.notOk(await rowOf('flaky'), 'done: gone')
})

t.test('a row that can never run is parked at once', async (t) => {
  await clear()
  const past = new Date(Date.now() - 1_000)
  await insertRow('unknown-aggregate', 'nothing-by-this-name', {}, past)
  await insertRow('not-a-command', 'customer', { type: 'DeleteEverything', sessionId: 'tax-id-1' }, past)
  t.same(await runDueCommands({ db, commands, log: quiet }), { fired: 0, retried: 0, parked: 2 })
  t.match(await rowOf('unknown-aggregate'), { status: 'PARKED', attempts: 1, last_error: /no schedulable aggregate/ })
  const notCommand = await rowOf('not-a-command')
  t.match(notCommand, { status: 'PARKED', attempts: 1, last_error: /not one of customer: .*type: invalid_union/ })
  t.notOk(notCommand?.last_error?.includes('tax-id'), 'no value in the error')
})

t.test('due verification sessions: two instances racing expire each exactly once', async (t) => {
  await clear()
  const sessions: { customerId: string; sessionId: string }[] = []
  for (let i = 0; i < 12; i++) {
    const c = await createIndividual(h)
    const res = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification_sessions`, payload: {} })
    t.equal(res.statusCode, 201)
    sessions.push({ customerId: c.id, sessionId: res.json().id })
  }
  const timers = await db.selectFrom('scheduled_commands').select('id').execute()
  t.equal(timers.length, sessions.length, 'one timer per session, from its creation')
  // As if the scheduler had been away until after every session expired.
  const later = () => new Date(Date.now() + 5_000)
  const second = openReadDatabase(h.runtime.databaseUrl, 5)
  const secondScheduler = openSchedulerDatabase(second.pool)
  t.teardown(() => second.db.destroy())
  const runs = await Promise.all([
    runDueCommands({ db, commands, log: recordingLog, clock: later, limits: { batchSize: 2 } }),
    runDueCommands({ db: secondScheduler, commands, log: recordingLog, clock: later, limits: { batchSize: 2 } }),
  ])
  t.equal(runs[0]!.fired + runs[1]!.fired, sessions.length, 'every timer fired once between them')
  for (const s of sessions) {
    const events = await store.readStream(`customer-${s.customerId}`)
    const expired = events.filter((e) => e.type === 'VerificationSessionExpired')
    t.equal(expired.length, 1, `${s.sessionId} expired once`)
    t.equal(expired[0]?.metadata.commandId, expiryTimerId(s.sessionId))
    t.equal(expired[0]?.metadata.actor, 'system:scheduler')
  }
  // Fired again (a crash before the row's delete committed): the command runtime appends nothing.
  const { organizationId } = h.org
  for (const s of sessions) {
    await scheduleCommand(db, {
      id: expiryTimerId(s.sessionId),
      organizationId,
      aggregate: 'customer',
      stream: `customer-${s.customerId}`,
      dueAt: new Date(),
      command: { type: 'ExpireVerificationSession', organizationId, customerId: s.customerId, sessionId: s.sessionId },
    })
  }
  t.equal((await runDueCommands({ db, commands, log: recordingLog, clock: later })).fired, sessions.length, 'the rows ran again')
  for (const s of sessions) {
    const events = await store.readStream(`customer-${s.customerId}`)
    t.equal(events.filter((e) => e.type === 'VerificationSessionExpired').length, 1, 'and appended nothing')
  }
})

t.test('an existing database upgrades in place: the timer consumer starts from zero and schedules every session once', async (t) => {
  const c = await createIndividual(h)
  const session = (await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification_sessions`, payload: {} })).json()
  // As before migration 0008: no timers, and no checkpoint for their consumer.
  await h.runtime.runner.stop()
  await clear()
  await h.runtime.db.deleteFrom('consumer_checkpoints').where('name', '=', verificationExpiryScheduling.name).execute()
  const runner = createWorkflowRunner({
    commands,
    db,
    workflows: allWorkflows,
    protection: h.runtime.protection,
    environment: h.runtime.config.APP_ENV,
    consumers: timerConsumers({
      customerDataRetentionDays: h.runtime.config.CUSTOMER_DATA_RETENTION_DAYS,
      environment: h.runtime.config.APP_ENV,
      commands,
      railDelays: {},
    }),
    log: { info: () => undefined, error: () => undefined },
  })
  await runner.start()
  t.teardown(() => runner.stop())
  const head = await store.readAll({ maxCount: 10_000 })
  t.ok(await runner.waitFor(head.at(-1)?.position, 10_000), 'caught up')
  const timers = (await db.selectFrom('scheduled_commands').select('id').execute()).map((r) => r.id)
  t.ok(timers.includes(expiryTimerId(session.id)), 'the session created before the upgrade has its timer')
  t.equal(new Set(timers).size, timers.length, 'one row per session')
  const created = head.filter((e) => e.type === 'VerificationSessionCreated').length
  t.equal(timers.length, created, 'every session ever created has exactly one timer')
})
