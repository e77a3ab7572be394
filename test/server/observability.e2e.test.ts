// The operator's routes outside /v1 (issue 29): GET /metrics in the Prometheus text format (every
// line parsed), GET /ready (503 while a consumer is behind, 200 once caught up) and GET /health's
// lag and dead letters, on a real Postgres with the read models kept asynchronously, so stopping
// the consumers leaves them behind. A clock the app is given ages the lag without waiting.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import { type NewDeadLetter, writeDeadLetters } from '../../events/consumers/deadLetters.js'
import { encodePosition } from '../../events/store/positions.js'
import { CONSUMER_NAMES } from '../../server/runtime.js'
import { lagTargets } from '../../server/observability/lagTargets.js'
import { recordLedgerVerification } from '../../server/observability/ledgerVerifications.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'

type Sample = { name: string; labels: Record<string, string>; value: number }

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*"'
const SAMPLE = new RegExp(
  `^(${METRIC_NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|NaN|\\+Inf|-Inf)$`,
)
const HELP = new RegExp(`^# HELP ${METRIC_NAME} .*$`)
const TYPE = new RegExp(`^# TYPE ${METRIC_NAME} (counter|gauge|histogram|summary|untyped)$`)

/** The text exposition format, line by line: every line a HELP, a TYPE or a sample (else it throws). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '' || HELP.test(line) || TYPE.test(line)) continue
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`line ${i + 1} is not a valid exposition line: ${line}`)
    const labels: Record<string, string> = {}
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

/** A dead letter as the consumer runtime writes one (the parking itself: test/consumers/). */
const letter = (organizationId: string): NewDeadLetter => ({
  consumer: 'organizations',
  group: 'projections',
  event: {
    id: randomUUID(),
    stream: `organization-${organizationId}`,
    revision: 0n,
    position: encodePosition(1n, 1n),
    type: 'OrganizationCreated',
    data: {},
    metadata: { organizationId },
    recordedAt: new Date(),
  },
  reason: 'failed',
  error: 'Error: the projector failed',
  attempts: 3,
})

async function scrape(h: TestApp, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await h.request({ method: 'GET', url: '/metrics', apiKey: null, headers })
  if (res.statusCode !== 200) throw new Error(`GET /metrics: ${res.statusCode} ${res.body}`)
  if (!/^text\/plain; version=0\.0\.4/.test(String(res.headers['content-type'])))
    throw new Error(`content type ${res.headers['content-type']}`)
  return parseExposition(res.body)
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0)

t.test('GET /metrics: valid exposition text, requests by route pattern, appends, lag per consumer, queues, ledger', async (t) => {
  const h = await startTestApp(t, { PROJECTIONS: 'async' }, { webhooks: { dispatcher: false } })
  const before = await scrape(h)
  for (let i = 0; i < 3; i++) {
    const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: `https://example.com/hook/${i}` } })
    t.equal(res.statusCode, 201)
    t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${res.json().id}` })).statusCode, 200)
  }
  t.equal((await h.request({ method: 'GET', url: '/no/such/route', apiKey: null })).statusCode, 404)
  const after = await scrape(h)

  const created = { method: 'POST', route: '/v1/webhooks/endpoints', status_code: '201' }
  t.equal(
    valueOf(after, 'http_request_duration_seconds_count', created) - valueOf(before, 'http_request_duration_seconds_count', created),
    3,
  )
  const read = { method: 'GET', route: '/v1/webhooks/endpoints/:endpointId', status_code: '200' }
  t.equal(valueOf(after, 'http_request_duration_seconds_count', read), 3, 'counted by the route pattern, not the URL')
  t.notOk(
    after.some((s) => s.labels.route?.includes('we_')),
    'no id in a route label',
  )
  t.ok(valueOf(after, 'http_request_duration_seconds_bucket', { ...created, le: '+Inf' }) >= 3, 'a latency histogram')
  t.ok(valueOf(after, 'http_request_duration_seconds_count', { route: '(unmatched)', status_code: '404' }) >= 1, 'a 404 counts too')
  t.ok(valueOf(after, 'events_appended_total') - valueOf(before, 'events_appended_total') >= 3, 'the appended-events counter grew')
  t.ok(valueOf(after, 'events_appended_total', { event_type: 'WebhookEndpointCreated' }) >= 3, 'by event type')

  const names = lagTargets(h.runtime).map((c) => c.name)
  for (const metric of ['consumer_lag_events', 'consumer_lag_seconds', 'consumer_stalled', 'consumer_lag_lower_bound']) {
    t.same(
      after
        .filter((s) => s.name === metric)
        .map((s) => s.labels.consumer)
        .sort(),
      [...names].sort(),
      `${metric}: one per consumer`,
    )
  }
  t.ok(
    after.filter((s) => s.name === 'consumer_lag_events').every((s) => s.value >= 0),
    'lags are counts',
  )
  t.same(
    after.filter((s) => s.name === 'consumer_parked_events').map((s) => [s.labels.group, s.value]),
    CONSUMER_NAMES.map((g) => [g, 0]),
  )
  t.ok(valueOf(after, 'webhook_queue_deliveries', { state: 'pending' }) >= 0, 'webhook queue depth')
  t.equal(after.filter((s) => s.name === 'scheduler_due_commands' || s.name === 'scheduler_parked_commands').length, 2, 'scheduler backlog')
  t.ok(
    after.some((s) => s.name === 'event_store_head_staleness_seconds'),
    'the head staleness',
  )
  t.equal(valueOf(after, 'metrics_scrape_errors'), 0, 'every source answered')
  t.notOk(
    after.some((s) => s.name.startsWith('ledger_verify_')),
    'no ledger verification recorded yet: absent, not 0',
  )
  t.notOk(
    after.some((s) => Object.values(s.labels).some((v) => v.startsWith('org_'))),
    'no organization id in any label',
  )

  // What `ledger verify` records after a run (test/cli/ledgerVerify.e2e.test.ts runs the command).
  await recordLedgerVerification(h.runtime.db, { consistent: true, events: 42, checkedThrough: '', durationMs: 5, discrepancyKind: null })
  const verified = await scrape(h)
  t.equal(valueOf(verified, 'ledger_verify_last_consistent', { discrepancy_kind: 'none' }), 1)
  t.equal(valueOf(verified, 'ledger_verify_last_events', { result: 'consistent' }), 42)
  t.ok(Math.abs(valueOf(verified, 'ledger_verify_last_run_timestamp_seconds') - Date.now() / 1000) < 60)
})

t.test('GET /ready: 503 while a consumer is behind, 200 once every one is within the bound', async (t) => {
  const h = await startTestApp(t, { PROJECTIONS: 'async', READY_MAX_LAG_EVENTS: '0' }, { webhooks: { dispatcher: false } })
  await h.runtime.runner.stop()
  const org = await createOrganization(h.runtime.commands, { name: 'Behind', environment: 'sandbox', actor: 'test' })
  // Gap-safe, the head may show the second event a moment later (as in the /health test below): bounded wait for both.
  const organizationsLag = (reply: { json(): unknown }) =>
    (reply.json() as { behind?: { name: string; lagEvents: number }[] }).behind?.find((c) => c.name === 'organizations')?.lagEvents
  let behind = await h.request({ method: 'GET', url: '/ready', apiKey: null })
  for (let i = 0; i < 50 && organizationsLag(behind) !== 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    behind = await h.request({ method: 'GET', url: '/ready', apiKey: null })
  }
  t.equal(behind.statusCode, 503)
  t.match(behind.json(), { status: 'not_ready', reason: 'consumers_behind' })
  t.ok(
    behind.json().behind.some((c: { name: string; lagEvents: number }) => c.name === 'organizations' && c.lagEvents === 2),
    'names the projector that is behind',
  )
  await h.runtime.runner.start()
  t.ok(await h.runtime.runner.waitFor(org.position, 10_000), 'the consumers caught up')
  t.ok(await h.runtime.webhooks.waitForMessages(org.position, 10_000), 'the subscriber too')
  t.ok(await h.runtime.runner.auditTree.waitFor(org.position, 10_000), 'and the Merkle sealer')
  const ready = await h.request({ method: 'GET', url: '/ready', apiKey: null })
  t.equal(ready.statusCode, 200, ready.body)
  t.same(ready.json(), { status: 'ready' })
})

t.test('GET /health: lag in events and seconds, staleness, stalled, and the oldest dead letters', async (t) => {
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  const h = await startTestApp(t, { PROJECTIONS: 'async' }, { webhooks: { dispatcher: false }, clock })
  await h.runtime.runner.stop()
  await createOrganization(h.runtime.commands, { name: 'Behind', environment: 'sandbox', actor: 'test' })
  type Lag = { name: string; lagEvents: number; lagSeconds: number; stalled: boolean; lagIsLowerBound: boolean }
  const health = async () => {
    const res = await h.request({ method: 'GET', url: '/health', apiKey: null })
    t.equal(res.statusCode, 200)
    return res.json() as { status: string; lag: { headStalenessSeconds: number; complete: boolean; consumers: Lag[] }; parked: unknown[] }
  }
  // The head is read gap-safe: behind a transaction another consumer (the webhook subscriber) holds open, the
  // newest event shows a moment later. Bounded wait until both of the organization's events are counted.
  let fresh = await health()
  for (let i = 0; i < 50 && fresh.lag.consumers.find((c) => c.name === 'organizations')?.lagEvents !== 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    fresh = await health()
  }
  t.equal(fresh.status, 'ok', 'lag alone does not degrade /health')
  t.match(
    fresh.lag.consumers.find((c) => c.name === 'organizations'),
    { lagEvents: 2, stalled: false, lagIsLowerBound: false },
  )
  t.ok(fresh.lag.headStalenessSeconds < 30 && fresh.lag.complete)

  offsetMs = 120_000
  const aged = await health()
  const organizations = aged.lag.consumers.find((c) => c.name === 'organizations')!
  t.match(organizations, { lagEvents: 2, stalled: true }, 'behind, and its checkpoint did not move for a minute: stalled')
  t.ok(organizations.lagSeconds >= 120, `lag in seconds: ${organizations.lagSeconds}`)
  t.ok(aged.lag.headStalenessSeconds >= 120, 'the head is two minutes old')
  t.ok(
    aged.lag.consumers.filter((c) => c.lagEvents === 0).every((c) => !c.stalled),
    'a consumer with nothing to do is never stalled',
  )

  await writeDeadLetters(h.runtime.db, [letter('org_parked')])
  const parked = await health()
  t.equal(parked.status, 'degraded')
  t.match(parked.parked, [
    {
      group: 'projections',
      letters: 1,
      oldest: [
        {
          consumer: 'organizations',
          organizationId: 'org_parked',
          stream: 'organization-org_parked',
          error: 'Error: the projector failed',
        },
      ],
    },
  ])
  const age = (parked.parked[0] as { oldest: { ageSeconds: number }[] }).oldest[0]!.ageSeconds
  t.ok(age >= 119 && age < 200, `the letter's age by the app's clock: ${age}`)
})

t.test('METRICS_TOKEN: /metrics and the letters in /health need it', async (t) => {
  const token = 'operator-token-0123456789'
  const h = await startTestApp(t, { METRICS_TOKEN: token, APP_ENV: 'production' })
  const refused = await h.request({ method: 'GET', url: '/metrics', apiKey: null })
  t.equal(refused.statusCode, 401)
  t.match(refused.json(), { code: 'metrics_token_required' })
  t.equal((await h.request({ method: 'GET', url: '/metrics', apiKey: null, headers: { authorization: 'Bearer wrong' } })).statusCode, 401)
  t.ok((await scrape(h, { authorization: `Bearer ${token}` })).length > 0)
  await writeDeadLetters(h.runtime.db, [letter('org_hidden')])
  const open = await h.request({ method: 'GET', url: '/health', apiKey: null })
  t.equal(open.statusCode, 200, '/health itself stays open')
  t.same(open.json().parked, [{ group: 'projections', letters: 1 }], 'without the token: the count, not the tenant, stream or error')
  const operator = await h.request({ method: 'GET', url: '/health', apiKey: null, headers: { authorization: `Bearer ${token}` } })
  t.match(operator.json().parked, [{ group: 'projections', letters: 1, oldest: [{ organizationId: 'org_hidden' }] }])
})
