// A consumer failing on an event: exponential back-off with one log line per attempt, a durable
// failure record that clears when the failure does, isolation of the poison (what precedes it is
// applied and checkpointed), an operator's skip honoured on the next attempt, and a stop that ends
// a back-off at once.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import { CONSUMER_BACKOFF, ConsumerStoppedError, backoffDelayMs, createConsumerGuard } from '../../events/consumers/consumerGuard.js'
import { listFailures, recordSkip } from '../../events/consumers/consumerRecords.js'
import { PROJECTIONS_CONSUMER } from '../../projections/runtime/projectionRunner.js'
import { loadConfig } from '../../server/config.js'
import { openRuntime } from '../../server/runtime.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { eventually, insertRawEvent } from './fixtures/poison.js'

type Line = { fields: Record<string, unknown>; message: string }

function capturingLog() {
  const errors: Line[] = []
  const infos: string[] = []
  const fieldsOf = (obj: unknown): Record<string, unknown> =>
    typeof obj === 'object' && obj !== null ? Object.fromEntries(Object.entries(obj)) : {}
  return {
    errors,
    infos,
    log: {
      info: (m: string) => void infos.push(m),
      error: (obj: unknown, message?: string) => void errors.push({ fields: fieldsOf(obj), message: message ?? '' }),
    },
  }
}

const { url, drop } = await makeTestDatabase()
const captured = capturingLog()
const runtime = await openRuntime(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), captured.log, {
  poolSize: 4,
  consumerBackoff: { initialMs: 20, maxMs: 80 },
})
t.teardown(async () => {
  await runtime.close()
  await drop()
})

const fakeEvent = (n: number): RecordedEvent => ({
  id: randomUUID(),
  stream: 'fake-1',
  revision: BigInt(n),
  position: `${String(n).padStart(20, '0')}/${String(n).padStart(20, '0')}` as RecordedEvent['position'],
  type: 'Faked',
  data: { secretValue: 'TAX-ID-123' },
  metadata: {},
  recordedAt: new Date(),
})

t.test('delays: 100 ms doubling to a 60 s cap by default', async (t) => {
  t.same(
    [1, 2, 3, 4, 10, 11, 50].map((n) => backoffDelayMs(CONSUMER_BACKOFF, n)),
    [100, 200, 400, 800, 51_200, 60_000, 60_000],
  )
})

t.test('a failure that clears (the database back): one line per attempt, a record while failing, ok after', async (t) => {
  const { errors, log } = capturingLog()
  const guard = createConsumerGuard({ name: 'test_clears', db: runtime.db, log, backoff: { initialMs: 10, maxMs: 40 } })
  await guard.start()
  const events = [fakeEvent(1), fakeEvent(2)]
  let calls = 0
  let recordSeen: Awaited<ReturnType<typeof listFailures>>[number] | undefined
  const applied: string[] = []
  await guard.handle(events, async (batch) => {
    calls++
    if (calls <= 4) {
      if (calls === 4) recordSeen = (await listFailures(runtime.db)).find((f) => f.consumer === 'test_clears')
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432 "TAX-ID-123"'), { code: 'ECONNREFUSED' })
    }
    applied.push(...batch.map((e) => e.id))
  })
  t.same(
    applied,
    events.map((e) => e.id),
    'every event applied once the failure cleared, in order',
  )
  // Batch, then the first event alone, then its back-off attempts.
  t.same(
    errors.map((e) => [e.fields.attempt, e.fields.nextDelayMs]),
    [
      [1, 10],
      [2, 20],
      [3, 40],
    ],
    'one line per attempt, the delay doubling to the cap',
  )
  t.ok(
    errors.every(
      (e) =>
        e.message === 'consumer failed on an event; backing off' &&
        e.fields.consumer === 'test_clears' &&
        e.fields.eventId === events[0]!.id &&
        e.fields.eventType === 'Faked' &&
        e.fields.position === events[0]!.position,
    ),
  )
  t.notOk(JSON.stringify(errors).includes('TAX-ID-123'), 'no data value in the log lines')
  t.match(
    recordSeen,
    { consumer: 'test_clears', attempts: 2, event: { id: events[0]!.id, type: 'Faked', position: events[0]!.position } },
    'recorded while failing',
  )
  t.notOk(recordSeen?.lastError.includes('TAX-ID-123'), 'no data value in the record')
  t.same(guard.health(), { status: 'ok' })
  t.notOk(
    (await listFailures(runtime.db)).some((f) => f.consumer === 'test_clears'),
    'record cleared once it passed',
  )
})

t.test('stop ends a back-off at once', async (t) => {
  const { log } = capturingLog()
  const guard = createConsumerGuard({ name: 'test_stop', db: runtime.db, log, backoff: { initialMs: 60_000, maxMs: 60_000 } })
  await guard.start()
  const handling = guard.handle([fakeEvent(1)], async () => {
    throw new Error('always')
  })
  await eventually(async () => (guard.failing() ? true : undefined), 5_000, 'the guard to fail')
  const started = Date.now()
  guard.stop()
  const error = await handling.catch((e: unknown) => e)
  t.ok(error instanceof ConsumerStoppedError, 'the batch ends with ConsumerStoppedError')
  t.ok(Date.now() - started < 1_000, `stopped in ${Date.now() - started} ms, not after the 60 s back-off`)
})

t.test('a stop that comes while an attempt runs starts no back-off', async (t) => {
  const { log } = capturingLog()
  const guard = createConsumerGuard({ name: 'test_stop_mid_attempt', db: runtime.db, log, backoff: { initialMs: 60_000, maxMs: 60_000 } })
  await guard.start()
  let fail!: () => void
  const attempt = new Promise<void>((_, reject) => (fail = () => reject(new Error('failed after the stop'))))
  const handling = guard.handle([fakeEvent(1)], () => attempt)
  guard.stop()
  const started = Date.now()
  fail()
  t.ok((await handling.catch((e: unknown) => e)) instanceof ConsumerStoppedError)
  t.ok(Date.now() - started < 1_000, `ended in ${Date.now() - started} ms`)
})

t.test('the projection runner: applies what precedes a poison event, backs off on it, passes it once skipped', async (t) => {
  const before = await createOrganization(runtime.store, { name: 'Before the poison', environment: 'sandbox', actor: 'test' })
  const poisonId = await insertRawEvent(url, {
    stream: 'organization-org_poison',
    type: 'OrganizationCreated',
    data: { organizationId: 'org_poison', name: 'Nul\u0000Name', createdAt: new Date().toISOString() },
    metadata: { organizationId: 'org_poison' },
  })
  const after = await createOrganization(runtime.store, { name: 'After the poison', environment: 'sandbox', actor: 'test' })
  await runtime.runner.start()

  const failure = await eventually(
    async () => (await listFailures(runtime.db)).find((f) => f.consumer === PROJECTIONS_CONSUMER),
    10_000,
    'the failure record',
  )
  t.equal(failure.event.id, poisonId, 'the failure names the poison event')
  t.equal(failure.event.type, 'OrganizationCreated')
  t.notMatch(failure.lastError, /Nul/, 'the record holds no data value')
  const names = async () => (await runtime.db.selectFrom('organizations').select('name').orderBy('name').execute()).map((r) => r.name)
  t.same(await names(), ['Before the poison'], 'the event before the poison was applied')
  const checkpoint = await runtime.db
    .selectFrom('consumer_checkpoints')
    .select('position')
    .where('name', '=', 'organizations')
    .executeTakeFirstOrThrow()
  t.ok(
    checkpoint.position !== START && checkpoint.position < failure.event.position && checkpoint.position >= before.position!,
    'the checkpoint moved up to the poison',
  )
  t.equal(runtime.runner.health().status, 'failing')
  t.equal(await runtime.runner.waitFor(after.position, 5_000), false, 'a write after the poison is not waited for while failing')

  await eventually(
    async () => (captured.errors.filter((e) => e.fields.eventId === poisonId).length >= 3 ? true : undefined),
    10_000,
    'three attempts',
  )
  const attempts = captured.errors.filter((e) => e.fields.eventId === poisonId).map((e) => e.fields.attempt)
  t.same(attempts.slice(0, 3), [1, 2, 3], 'attempts counted up, one line each')

  t.ok(
    await recordSkip(runtime.db, {
      consumer: PROJECTIONS_CONSUMER,
      eventId: poisonId,
      eventType: 'OrganizationCreated',
      position: failure.event.position,
      reason: 'test',
      actor: 'test',
    }),
  )
  t.ok(
    await eventually(async () => ((await names()).length === 2 ? true : undefined), 10_000, 'the event after the poison'),
    'passed the poison',
  )
  t.same(await names(), ['After the poison', 'Before the poison'])
  t.ok(await runtime.runner.waitFor(after.position, 5_000))
  t.same(runtime.runner.health(), { status: 'ok' })
  // The record is deleted just after the batch commits (and waiters are released): wait for it.
  const cleared = await eventually(
    async () => ((await listFailures(runtime.db)).some((f) => f.consumer === PROJECTIONS_CONSUMER) ? undefined : true),
    5_000,
    'the failure record to clear',
  )
  t.ok(cleared, 'record cleared')
  t.ok(
    captured.infos.some((m) => m.includes(`passes over event ${poisonId}`)),
    'the pass-over is logged',
  )
})
