// A consumer failing on an event: exponential back-off with one log line per attempt, a durable
// failure record that clears when the failure does, isolation of the poison (what precedes it is
// applied and checkpointed), parking after PARKING.attempts failures of one consumer that are not
// transient, never on a transient one, an operator's skip honoured on the next attempt, and a stop
// that ends a back-off at once.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import type { RecordedEvent } from '../../events/store/port.js'
import {
  CONSUMER_BACKOFF,
  ConsumerStoppedError,
  PARKING,
  backoffDelayMs,
  createConsumerGuard,
} from '../../events/consumers/consumerGuard.js'
import { ConsumerFailedError } from '../../events/consumers/consumerFailedError.js'
import { listFailures, recordSkip } from '../../events/consumers/consumerRecords.js'
import { listDeadLetters } from '../../events/consumers/deadLetters.js'
import type { ParkRequest } from '../../events/consumers/parkedStreams.js'
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
const runtime = await openRuntime(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', PROJECTIONS: 'async' }), captured.log, {
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

t.test('delays while the failure is transient (the database restarting): the same doubling, capped at 5 s', async (t) => {
  t.same(
    [1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelayMs(CONSUMER_BACKOFF, n, true)),
    [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000],
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

t.test('one consumer failing on an event, not transiently: parked for it after PARKING.attempts, at once', async (t) => {
  const { errors, log } = capturingLog()
  const guard = createConsumerGuard({ name: 'test_parks', db: runtime.db, log, backoff: { initialMs: 10, maxMs: 40 } })
  await guard.start()
  const event = fakeEvent(1)
  const calls: ParkRequest[][] = []
  await guard.handle([event], async (_batch, parks) => {
    calls.push([...parks])
    // The second consumer of the group fails too, once the first is parked: it gets its own attempts.
    if (parks.length === 0) throw new ConsumerFailedError('first', event.id, new Error('bug "TAX-ID-123"'))
    if (parks.length === 1) throw new ConsumerFailedError('second', event.id, new RangeError('too large'))
  })
  t.same(
    calls.map((parks) => parks.map((p) => [p.consumer, p.attempts])),
    [
      [],
      [],
      [],
      [['first', PARKING.attempts]],
      [['first', PARKING.attempts]],
      [['first', PARKING.attempts]],
      [
        ['first', PARKING.attempts],
        ['second', PARKING.attempts],
      ],
    ],
    'each consumer parked after its own attempts, the park tried at once',
  )
  t.match(calls[6]![0]!.error, /^first: Error: bug/)
  t.notMatch(calls[6]![0]!.error, /TAX-ID/, "the letter's error holds no data value")
  t.same(
    errors.filter((e) => e.fields.attempt !== undefined).map((e) => [e.fields.attempt, e.fields.handler, e.fields.nextDelayMs]),
    [
      [1, 'first', 10],
      [2, 'first', 20],
      [3, 'first', 0],
      [4, 'second', 40],
      [5, 'second', 40],
      [6, 'second', 0],
    ],
  )
  t.same(
    errors.filter((e) => e.message.startsWith('consumer parked a stream')).map((e) => e.fields.handler),
    ['first', 'second'],
    'each park logged once it committed',
  )
  t.same(guard.health(), { status: 'ok' })
})

t.test('a transient failure never parks, and a failure the guard cannot pin on one consumer neither; a skip passes both', async (t) => {
  const { log } = capturingLog()
  const guard = createConsumerGuard({ name: 'test_transient', db: runtime.db, log, backoff: { initialMs: 5, maxMs: 10 } })
  await guard.start()
  const transient = fakeEvent(1)
  const unattributed = fakeEvent(2)
  const parksSeen: ParkRequest[] = []
  let attempts = 0
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' })
  const handling = guard.handle([transient, unattributed], async (batch, parks) => {
    parksSeen.push(...parks)
    if (guard.isSkipped(batch[0]!.id)) return
    attempts++
    if (batch[0]!.id === transient.id) throw new ConsumerFailedError('first', transient.id, deadlock)
    throw new Error('the checkpoint statement failed')
  })
  await eventually(async () => (attempts >= PARKING.attempts * 3 ? true : undefined), 10_000, 'many attempts')
  t.same(parksSeen, [], 'never parked')
  await recordSkip(runtime.db, {
    consumer: 'test_transient',
    eventId: transient.id,
    eventType: 'Faked',
    position: transient.position,
    reason: 't',
    actor: 't',
  })
  const before = attempts
  await eventually(async () => (attempts >= before + PARKING.attempts * 3 ? true : undefined), 10_000, 'attempts on the second event')
  t.same(parksSeen, [], 'a failure not pinned on a consumer is not parked either')
  await recordSkip(runtime.db, {
    consumer: 'test_transient',
    eventId: unattributed.id,
    eventType: 'Faked',
    position: unattributed.position,
    reason: 't',
    actor: 't',
  })
  await handling
  t.same(guard.health(), { status: 'ok' })
})

t.test(
  'the projection runner: applies what precedes a poison event, backs off on it, then parks its stream for that projector',
  async (t) => {
    const before = await createOrganization(runtime.commands, { name: 'Before the poison', environment: 'sandbox', actor: 'test' })
    const poisonId = await insertRawEvent(url, {
      stream: 'organization-org_poison',
      type: 'OrganizationCreated',
      data: { organizationId: 'org_poison', name: 'Nul\u0000Name', createdAt: new Date().toISOString() },
      metadata: { organizationId: 'org_poison' },
    })
    const after = await createOrganization(runtime.commands, { name: 'After the poison', environment: 'sandbox', actor: 'test' })
    await runtime.runner.start()

    const failure = await eventually(
      async () => (await listFailures(runtime.db)).find((f) => f.consumer === PROJECTIONS_CONSUMER),
      10_000,
      'the failure record',
    )
    t.equal(failure.event.id, poisonId, 'the failure names the poison event')
    t.equal(failure.event.type, 'OrganizationCreated')
    t.notMatch(failure.lastError, /Nul/, 'the record holds no data value')
    t.match(failure.lastError, /^organizations: PostgreSQL/, 'and names the projector that failed')

    const names = async () => (await runtime.db.selectFrom('organizations').select('name').orderBy('name').execute()).map((r) => r.name)
    const parked = await eventually(
      async () => {
        const letters = await listDeadLetters(runtime.db, { group: PROJECTIONS_CONSUMER })
        return letters.length > 0 ? letters : undefined
      },
      10_000,
      'the letter',
    )
    t.match(parked, [
      {
        consumer: 'organizations',
        group: PROJECTIONS_CONSUMER,
        eventId: poisonId,
        stream: 'organization-org_poison',
        eventType: 'OrganizationCreated',
        organizationId: 'org_poison',
        reason: 'failed',
        attempts: PARKING.attempts,
      },
    ])
    t.notMatch(parked[0]!.error, /Nul/)
    // (A wait answers false at once while the runner is failing, which it is until the park commits.)
    const reachedAfter = await eventually(
      async () => ((await runtime.runner.waitFor(after.position, 1_000)) ? true : undefined),
      10_000,
      'after',
    )
    t.ok(reachedAfter, 'a write after the poison is reached once it is parked')
    t.same(await names(), ['After the poison', 'Before the poison'], 'the events before and after it applied')
    t.ok(before.position)
    const attempts = captured.errors
      .filter((e) => e.fields.eventId === poisonId && e.fields.attempt !== undefined)
      .map((e) => e.fields.attempt)
    t.same(attempts, [1, 2, 3], 'three attempts, one line each')
    t.same(runtime.runner.health(), { status: 'ok' })
    const cleared = await eventually(
      async () => ((await listFailures(runtime.db)).some((f) => f.consumer === PROJECTIONS_CONSUMER) ? undefined : true),
      5_000,
      'the failure record to clear',
    )
    t.ok(cleared, 'record cleared')
  },
)
