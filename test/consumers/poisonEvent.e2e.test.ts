// Issue 9, defect 1 end to end: a poison event put in the store behind the port's back stops
// neither the service nor the other tenants' requests. Both consumers back off on it and show as
// failing in /health and `projections status` (another process); the service boots and serves
// while they fail and stops at once; the operator skips the event through the CLI with an audit
// record; then everything catches up, later events are projected and delivered as webhook messages,
// and `projections rebuild` succeeds.
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { newId } from '../../domain/shared/ids.js'
import type { Runtime } from '../../server/runtime.js'
import { buildApp } from '../../server/app.js'
import { loadConfig } from '../../server/config.js'
import { ensureDemoOrganization } from '../../server/firstStart.js'
import { createLogger } from '../../server/logger.js'
import { openRuntime } from '../../server/runtime.js'
import type { ConsumerBackoff } from '../../events/consumers/consumerGuard.js'
import { runCli, stderrError, stdoutJson } from '../cli/fixtures/runCli.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { FAST_DISPATCHER } from '../webhooks/deliveryHelpers.js'
import { startReceiver } from '../webhooks/deliveryReceiver.js'
import { eventually, insertRawEvent } from './fixtures/poison.js'

type Line = { fields: Record<string, unknown>; message: string }
type Lag = { name: string; position: string | null; lag: number }
type ConsumerStatus = {
  name: string
  status: string
  failingSince?: string
  attempts?: number
  lastError?: string
  event?: { id: string; type: string; position: string }
}
type Skip = { consumer: string; eventId: string; eventType: string; position: string; reason: string; actor: string; createdAt: string }
type Status = { head: string; projections: Lag[]; webhookSubscriber: Lag; consumers: ConsumerStatus[]; skips: Skip[] }

const FAILED_LINE = 'consumer failed on an event; backing off'
const SHORT_BACKOFF: ConsumerBackoff = { initialMs: 20, maxMs: 200 }
const SECRET_DESCRIPTION = 'Poisoned description TAX-ID-987\u0000'

const { url, drop } = await makeTestDatabase()
const env = { DATABASE_URL: url }
const receiver = await startReceiver()
t.teardown(async () => {
  await receiver.close()
  await drop()
})

type Service = { runtime: Runtime; app: FastifyInstance; printed: string[]; errors: Line[]; close: () => Promise<number> }

/** What server/main.ts does, in process: runtime, consumers, first start, HTTP. */
async function boot(backoff: ConsumerBackoff): Promise<Service> {
  const errors: Line[] = []
  const fieldsOf = (obj: unknown): Record<string, unknown> =>
    typeof obj === 'object' && obj !== null ? Object.fromEntries(Object.entries(obj)) : {}
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', WEBHOOK_RETRY_SCHEDULE_MS: '0,20,20', PROJECTION_WAIT_MS: '8000' })
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
  const run = await runCli(['projections', 'status'], env)
  t.equal(run.code, 0, run.stderr)
  return stdoutJson<Status>(run)
}

let demoKey = ''
let poisonId = ''
let endpointId = ''
// The consumers an endpoint event reaches; the workflows handle none, and stay ok throughout.
const POISONED = ['projections', 'webhook_messages']

t.test('first start, then a poison event: both consumers back off, once per attempt, and show as failing', async (t) => {
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
  poisonId = await insertRawEvent(url, {
    stream: `webhook_endpoint-${poisonEndpoint}`,
    type: 'WebhookEndpointCreated',
    data: { ...real!.data, endpointId: poisonEndpoint, description: SECRET_DESCRIPTION },
    metadata: real!.metadata,
  })

  const failing = await eventually(
    async () => {
      const h = await health(service)
      return h.body.consumers.filter((c) => POISONED.includes(c.name)).every((c) => c.status === 'failing') ? h : undefined
    },
    10_000,
    'both consumers failing in /health',
  )
  t.same(
    failing.body.consumers.find((c) => c.name === 'workflows'),
    { name: 'workflows', status: 'ok' },
    'the workflows are not stuck on it',
  )
  t.equal(failing.statusCode, 200, 'health answers 200 ...')
  t.equal(failing.body.status, 'degraded', '... degraded')

  // The API still serves: reads, and writes that do not wait PROJECTION_WAIT_MS (8 s here) for
  // projections that cannot get there.
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode, 200)
  const started = Date.now()
  const write = await request(service, demoKey, {
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'While', lastName: 'Failing' },
  })
  t.equal(write.statusCode, 201, write.body)
  t.ok(Date.now() - started < 4_000, `the write answered in ${Date.now() - started} ms`)

  await eventually(
    async () => (service.errors.filter((e) => e.message === FAILED_LINE).length >= 8 ? true : undefined),
    10_000,
    'a few attempts each',
  )
  const closedIn = await service.close()
  t.ok(closedIn < 3_000, `stopped in ${closedIn} ms while failing`)

  for (const consumer of ['projections', 'webhook_messages']) {
    const lines = service.errors.filter((e) => e.message === FAILED_LINE && e.fields.consumer === consumer)
    t.ok(lines.length >= 2, `${consumer}: ${lines.length} failure lines`)
    t.same(
      lines.map((l) => l.fields.attempt),
      lines.map((_, i) => i + 1),
      `${consumer}: one line per attempt`,
    )
    t.same(
      lines.map((l) => l.fields.nextDelayMs),
      lines.map((_, i) => Math.min(20 * 2 ** i, 200)),
      `${consumer}: the delay doubles to its cap`,
    )
    t.ok(
      lines.every(
        (l) => l.fields.eventId === poisonId && l.fields.eventType === 'WebhookEndpointCreated' && typeof l.fields.position === 'string',
      ),
      `${consumer}: names the event`,
    )
  }
  t.equal(
    service.errors.length,
    service.errors.filter((e) => e.message === FAILED_LINE).length,
    'no other error lines (no stack trace loop)',
  )
  t.notOk(JSON.stringify(service.errors).includes('TAX-ID-987'), 'no data value logged')
})

t.test('restart while the poison is there: boots, serves, and stops at once mid back-off', async (t) => {
  const service = await boot({ initialMs: 60_000, maxMs: 60_000 })
  t.same(service.printed, [], 'not a first start: nothing printed')
  t.equal(
    (await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode,
    200,
    'serves what it can',
  )
  await eventually(
    async () => (service.errors.filter((e) => e.message === FAILED_LINE).length >= 2 ? true : undefined),
    10_000,
    'both consumers in a 60 s back-off',
  )
  t.equal((await health(service)).body.status, 'degraded')
  const closedIn = await service.close()
  t.ok(closedIn < 3_000, `stopped in ${closedIn} ms, not after the 60 s back-off`)
})

t.test('the operator skips the event through the CLI; everything catches up and flows again', async (t) => {
  const service = await boot(SHORT_BACKOFF)
  t.teardown(() => service.close())

  const before = await status(t)
  t.match(
    before.consumers.find((c) => c.name === 'workflows'),
    { status: 'ok' },
  )
  for (const consumer of before.consumers.filter((c) => POISONED.includes(c.name))) {
    t.match(
      consumer,
      { status: 'failing', attempts: Number, event: { id: poisonId, type: 'WebhookEndpointCreated' } },
      `${consumer.name} failing, in another process's view`,
    )
    t.notMatch(consumer.lastError, /TAX-ID-987/, 'the last error holds no data value')
  }
  t.ok(before.projections.find((p) => p.name === 'webhook_endpoints')!.lag >= 1, 'the endpoints projection lags')

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
    position: before.consumers[0]!.event!.position,
    reason: 'NUL in a description (issue 9)',
    actor: 'alice',
    createdAt: String,
  })
  const skippedToo = await runCli(['projections', 'skip', 'webhook_messages', poisonId, '--reason', 'the same event'], env)
  t.equal(skippedToo.code, 0, skippedToo.stderr)
  t.match(stdoutJson<Skip>(skippedToo).actor, /^cli:/, 'the OS user when no --actor')

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
  ])

  // Later events: projected at once (read-your-writes) and delivered as webhook messages.
  const customer = await request(service, demoKey, {
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'After', lastName: 'Skip' },
  })
  t.equal(customer.statusCode, 201, customer.body)
  const customerId = customer.json().id as string
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/customers/${customerId}` })).statusCode, 200)
  await receiver.waitFor(
    (requests) => requests.filter((r) => r.path === '/hooks' && r.body.includes('"customer.created"')).length >= 2,
    10_000,
    'both customers delivered',
  )
  const delivered = receiver.forPath('/hooks').map((r) => JSON.parse(r.body) as { type: string; data: { id?: string; firstName?: string } })
  t.ok(
    delivered.some((m) => m.type === 'customer.created' && m.data.id === customerId),
    'the customer created after the skip was delivered',
  )

  const after = await status(t)
  t.same(after.consumers, [
    { name: 'projections', status: 'ok' },
    { name: 'webhook_messages', status: 'ok' },
    { name: 'workflows', status: 'ok' },
  ])
  t.ok(
    after.projections.every((p) => p.lag === 0),
    'every projection caught up',
  )
  t.equal(after.webhookSubscriber.lag, 0, 'the webhook subscriber caught up')
  t.same(
    after.skips.map((s) => [s.consumer, s.eventId, s.reason]),
    [
      ['projections', poisonId, 'NUL in a description (issue 9)'],
      ['webhook_messages', poisonId, 'the same event'],
    ],
  )

  const rebuild = await runCli(['projections', 'rebuild'], env)
  t.equal(rebuild.code, 0, `a rebuild passes over the skipped event too: ${rebuild.stderr}`)
  t.equal((await request(service, demoKey, { method: 'GET', url: `/v1/webhooks/endpoints/${endpointId}` })).statusCode, 200)
})
