// Issue 9, defect 1, and issue 24 point 3, end to end: a poison event put in the store behind the
// port's back stops neither the service nor anything else. Each consumer group that cannot handle it
// (the projections, the webhook subscriber) backs off on it PARKING.attempts times, one log line
// each, then parks its stream for the consumer that failed: later writes are projected at once and
// delivered as webhooks, and /health, `projections status` and `projections parked` (another process)
// show the dead letters. A restart does not touch the parked event again. The operator skips it
// through the CLI with an audit record, a replay passes over it, and `projections rebuild` succeeds.
// (test/cli/projectionsParked.e2e.test.ts covers the replay's confirmation and a letter failing again.)
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../domain/shared/ids.js'
import type { Runtime } from '../../server/runtime.js'
import { buildApp } from '../../server/app.js'
import { loadConfig } from '../../server/config.js'
import { ensureDemoOrganization } from '../../server/firstStart.js'
import { createLogger } from '../../server/logger.js'
import { openRuntime } from '../../server/runtime.js'
import { type ConsumerBackoff, PARKING } from '../../events/consumers/consumerGuard.js'
import { runCli, stderrError, stdoutJson } from '../cli/fixtures/runCli.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { FAST_DISPATCHER } from '../webhooks/deliveryHelpers.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'
import { eventually, insertRawEvent } from './fixtures/poison.js'

type Line = { fields: Record<string, unknown>; message: string }
type Lag = { name: string; position: string | null; lagEvents: number }
type ConsumerStatus = {
  name: string
  status: string
  failingSince?: string
  attempts?: number
  lastError?: string
  event?: { id: string; type: string; position: string }
  parked?: number
}
type Skip = { consumer: string; eventId: string; eventType: string; position: string; reason: string; actor: string; createdAt: string }
type Status = { head: string; projections: Lag[]; webhookSubscriber: Lag; consumers: ConsumerStatus[]; skips: Skip[]; parked: unknown[] }
type Letter = { group: string; consumer: string; stream: string; eventId: string; reason: string; attempts: number; error: string }
type Parked = { parked: Letter[]; counts: { group: string; consumer: string; letters: number }[] }

const FAILED_LINE = 'consumer failed on an event; backing off'
const PARKING_LINE = 'consumer failed on an event; parking its stream for that consumer'
const PARKED_LINE = 'consumer parked a stream: its later events wait as dead letters until an operator replays them'
// Each group's consumer that fails on it: the endpoints projector, and the subscriber itself.
const HANDLERS: Record<string, string> = { projections: 'webhook_endpoints', webhook_messages: 'webhook_messages' }
const SHORT_BACKOFF: Partial<ConsumerBackoff> = { initialMs: 20, maxMs: 200 }
const SECRET_DESCRIPTION = 'Poisoned description TAX-ID-987\u0000'

const { url, drop } = await makeTestDatabase()
const env = { DATABASE_URL: url, PROJECTIONS: 'async' }
const receiver = await startReceiver()
t.teardown(async () => {
  await receiver.close()
  await drop()
})

type Service = { runtime: Runtime; app: FastifyInstance; printed: string[]; errors: Line[]; close: () => Promise<number> }

/** What server/main.ts does, in process: runtime, consumers, first start, HTTP. */
async function boot(backoff: Partial<ConsumerBackoff>): Promise<Service> {
  const errors: Line[] = []
  const fieldsOf = (obj: unknown): Record<string, unknown> =>
    typeof obj === 'object' && obj !== null ? Object.fromEntries(Object.entries(obj)) : {}
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', WEBHOOK_RETRY_SCHEDULE_MS: '0,20,20', PROJECTION_WAIT_MS: '8000' })
  const runtime = await openRuntime(
    config,
    { info: () => undefined, error: (obj, message) => void errors.push({ fields: fieldsOf(obj), message: message ?? '' }) },
    { poolSize: 6, consumerBackoff: backoff },
  )
  await runtime.runner.start()
  await runtime.webhooks.start({ tuning: FAST_DISPATCHER })
  const printed: string[] = []
  await ensureDemoOrganization(runtime, (line) => printed.push(line), { keyWaitMs: 5_000 })
  const app = await buildApp(runtime, createLogger('silent'))
  await app.ready()
  return {
    runtime,
    app,
    printed,
    errors,
    async close() {
      const started = Date.now()
      await app.close()
      await runtime.close()
      return Date.now() - started
    },
  }
}

const request = (service: Service, apiKey: string, options: { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }) =>
  service.app.inject({ ...options, headers: { authorization: `Bearer ${apiKey}` } })

async function health(service: Service) {
  const res = await service.app.inject({ method: 'GET', url: '/health' })
  return { statusCode: res.statusCode, body: res.json() as { status: string; consumers: ConsumerStatus[] } }
}

async function status(t: Test): Promise<Status> {
  const run = await runCli(['projections', 'status', '--json'], env)
  t.equal(run.code, 0, run.stderr)
  return stdoutJson<Status>(run)
}

let demoKey = ''
let poisonId = ''
let poisonStream = ''
let endpointId = ''
// The consumers an endpoint event reaches; the workflows handle none, and stay ok throughout.
const POISONED = ['projections', 'webhook_messages']
const OK_BUT_PARKED = [
  { name: 'projections', status: 'parked', parked: 1, parkedStreams: 1 },
  { name: 'webhook_messages', status: 'parked', parked: 1, parkedStreams: 1 },
  { name: 'workflows', status: 'ok' },
  // The Merkle sealer takes every event as a leaf without reading its data: nothing poisons it.
  { name: 'audit_merkle_tree', status: 'ok' },
]

async function parkedList(t: Test, args: string[] = []): Promise<Parked> {
  const run = await runCli(['projections', 'parked', ...args], env)
  t.equal(run.code, 0, run.stderr)
  return stdoutJson<Parked>(run)
}

t.test('first start, then a poison event: each group backs off on it, parks it for the consumer that failed, and flows on', async (t) => {
  const service = await boot(SHORT_BACKOFF)
  demoKey = service.printed.find((line) => line.startsWith('sk_sandbox_')) ?? ''
  t.match(demoKey, /^sk_sandbox_/, 'sandbox first start prints the demo key')
  const created = await request(service, demoKey, {
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: receiver.url('/hooks') },
  })
  t.equal(created.statusCode, 201, created.body)
  endpointId = created.json().id as string

  // The reproduction, as a store written before the port refused it would hold it.
  const [real] = await service.runtime.store.readStream(`webhook_endpoint-${endpointId}`)
  const poisonEndpoint = newId('ep')
  poisonStream = `webhook_endpoint-${poisonEndpoint}`
  poisonId = await insertRawEvent(url, {
    stream: poisonStream,
    type: 'WebhookEndpointCreated',
    data: { ...real!.data, endpointId: poisonEndpoint, description: SECRET_DESCRIPTION },
    metadata: real!.metadata,
  })

  const parked = await eventually(
    async () => {
      const h = await health(service)
      return h.body.consumers.filter((c) => POISONED.includes(c.name)).every((c) => c.status === 'parked') ? h : undefined
    },
    10_000,
    'both groups parked in /health',
  )
  t.same(parked.body.consumers, OK_BUT_PARKED, 'each group shows its dead letter; the workflows are not touched by it')
  t.equal(parked.statusCode, 200, 'health answers 200 ...')
  t.equal(parked.body.status, 'degraded', '... degraded')

  // Nothing waits on the poison any more: a write is projected at once (read-your-writes) and
  // delivered as a webhook message.
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode, 200)
  const started = Date.now()
  const write = await request(service, demoKey, {
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'While', lastName: 'Parked' },
  })
  t.equal(write.statusCode, 201, write.body)
  t.ok(Date.now() - started < 4_000, `the write answered in ${Date.now() - started} ms`)
  const customerId = write.json().id as string
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/customers/${customerId}` })).statusCode, 200, 'read back at once')
  await receiver.waitFor(
    (requests) => requests.some((r) => r.path === '/hooks' && r.body.includes(customerId)),
    10_000,
    'the customer delivered',
  )

  const closedIn = await service.close()
  t.ok(closedIn < 3_000, `stopped in ${closedIn} ms`)

  for (const consumer of POISONED) {
    const lines = service.errors.filter((e) => (e.message === FAILED_LINE || e.message === PARKING_LINE) && e.fields.consumer === consumer)
    t.same(
      lines.map((l) => [l.fields.attempt, l.fields.nextDelayMs, l.fields.handler, l.message]),
      [
        [1, 20, HANDLERS[consumer], FAILED_LINE],
        [2, 40, HANDLERS[consumer], FAILED_LINE],
        [PARKING.attempts, 0, HANDLERS[consumer], PARKING_LINE],
      ],
      `${consumer}: one line per attempt, the delay doubling, the last one parking`,
    )
    t.ok(
      lines.every(
        (l) => l.fields.eventId === poisonId && l.fields.eventType === 'WebhookEndpointCreated' && typeof l.fields.position === 'string',
      ),
      `${consumer}: names the event`,
    )
    const parkedLines = service.errors.filter((e) => e.message === PARKED_LINE && e.fields.consumer === consumer)
    t.match(
      parkedLines,
      [{ fields: { handler: HANDLERS[consumer], eventId: poisonId, stream: poisonStream } }],
      `${consumer}: the park logged`,
    )
  }
  t.equal(
    service.errors.length,
    service.errors.filter((e) => [FAILED_LINE, PARKING_LINE, PARKED_LINE].includes(e.message)).length,
    'no other error lines (no stack trace loop)',
  )
  t.notOk(JSON.stringify(service.errors).includes('TAX-ID-987'), 'no data value logged')
})

t.test('restart while it is parked: boots, serves, and does not try the parked event again', async (t) => {
  const service = await boot({ initialMs: 60_000, maxMs: 60_000 })
  t.same(service.printed, [], 'not a first start: nothing printed')
  t.equal(
    (await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode,
    200,
    'serves what it can',
  )
  const write = await request(service, demoKey, {
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'After', lastName: 'Restart' },
  })
  t.equal(write.statusCode, 201, write.body)
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/customers/${write.json().id}` })).statusCode, 200)
  const h = await health(service)
  t.same(h.body.consumers, OK_BUT_PARKED, 'still parked, nothing failing')
  const closedIn = await service.close()
  t.ok(closedIn < 3_000, `stopped in ${closedIn} ms`)
  t.same(service.errors, [], 'no attempt on the parked event')
})

t.test('the operator sees the letters, skips the event, and a replay passes over it', async (t) => {
  const service = await boot(SHORT_BACKOFF)
  t.teardown(() => service.close())

  const before = await status(t)
  t.match(before.consumers, [
    { name: 'projections', status: 'parked', parked: 1 },
    { name: 'webhook_messages', status: 'parked', parked: 1 },
    { name: 'workflows', status: 'ok' },
    { name: 'audit_merkle_tree', status: 'ok' },
  ])
  t.ok(
    before.projections.every((p) => p.lagEvents === 0),
    'no projection lags: the parked event is a letter, behind the checkpoint',
  )
  const listed = await parkedList(t)
  t.same(
    listed.parked.map((l) => [l.group, l.consumer, l.eventId, l.reason, l.attempts]),
    [
      ['projections', 'webhook_endpoints', poisonId, 'failed', PARKING.attempts],
      ['webhook_messages', 'webhook_messages', poisonId, 'failed', PARKING.attempts],
    ],
    "one dead letter per consumer that failed, in another process's view",
  )
  t.ok(
    listed.parked.every((l) => !l.error.includes('TAX-ID-987') && l.stream === poisonStream),
    'the letters hold no data value',
  )

  const usage = await runCli(['projections', 'skip', 'projections', poisonId], env)
  t.equal(usage.code, 2, 'a reason is required')
  const notAhead = await runCli(['projections', 'skip', 'projections', '00000000-0000-4000-8000-000000000000', '--reason', 'nothing'], env)
  t.equal(notAhead.code, 1)
  t.equal(stderrError(notAhead).error, 'event_not_ahead')

  const skipped = await runCli(
    ['projections', 'skip', 'projections', poisonId, '--reason', 'NUL in a description (issue 9)', '--actor', 'alice'],
    env,
  )
  t.equal(skipped.code, 0, skipped.stderr)
  t.match(stdoutJson<Skip>(skipped), {
    consumer: 'projections',
    eventId: poisonId,
    eventType: 'WebhookEndpointCreated',
    position: String,
    reason: 'NUL in a description (issue 9)',
    actor: 'alice',
    createdAt: String,
  })
  const skippedToo = await runCli(['projections', 'skip', 'webhook_messages', poisonId, '--reason', 'the same event'], env)
  t.equal(skippedToo.code, 0, skippedToo.stderr)
  t.match(stdoutJson<Skip>(skippedToo).actor, /^cli:/, 'the OS user when no --actor')

  const replayed = await runCli(['projections', 'parked', 'replay', '--all', '--yes', '--actor', 'alice'], env)
  t.equal(replayed.code, 0, replayed.stderr)
  t.match(stdoutJson<{ outcomes: unknown[] }>(replayed).outcomes, [
    { consumer: 'webhook_endpoints', replayed: [], skipped: [poisonId], remaining: 0 },
    { consumer: 'webhook_messages', replayed: [], skipped: [poisonId], remaining: 0 },
  ])

  const ok = await eventually(
    async () => {
      const h = await health(service)
      return h.body.status === 'ok' ? h : undefined
    },
    10_000,
    '/health ok again',
  )
  t.same(ok.body.consumers, [
    { name: 'projections', status: 'ok' },
    { name: 'webhook_messages', status: 'ok' },
    { name: 'workflows', status: 'ok' },
    { name: 'audit_merkle_tree', status: 'ok' },
  ])

  const after = await status(t)
  t.same(after.consumers, [
    { name: 'projections', status: 'ok' },
    { name: 'webhook_messages', status: 'ok' },
    { name: 'workflows', status: 'ok' },
    { name: 'audit_merkle_tree', status: 'ok' },
  ])
  t.ok(
    after.projections.every((p) => p.lagEvents === 0),
    'every projection caught up',
  )
  t.equal(after.webhookSubscriber.lagEvents, 0, 'the webhook subscriber caught up')
  t.same(
    after.skips.map((s) => [s.consumer, s.eventId, s.reason]),
    [
      ['projections', poisonId, 'NUL in a description (issue 9)'],
      ['webhook_messages', poisonId, 'the same event'],
    ],
  )
  t.same(after.parked, [], 'no letter left')

  const rebuild = await runCli(['projections', 'rebuild'], env)
  t.equal(rebuild.code, 0, `a rebuild passes over the skipped event too: ${rebuild.stderr}`)
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode, 200)
})
