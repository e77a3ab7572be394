// Operator keys and routes (issue 30, point 4): an OPERATOR key reads each consumer group's state and
// lag, the dead letters (never an event's data) and any organization's resource history, masked as
// the audit history masks it; every other key is 403 operator_key_required there, and an operator key
// is 403 operator_key_not_allowed on every tenant route, reads and writes alike, by key or console cookie.
import t from 'tap'
import { createApiKey, createOrganization } from '../../commands/organizations/organizationCommands.js'
import { writeDeadLetters } from '../../events/consumers/deadLetters.js'
import { streams } from '../../events/streams.js'
import { CONSUMER_NAMES } from '../../server/runtime.js'
import { SUBSCRIBER_CHECKPOINT } from '../../webhooks/subscriber/storeBatch.js'
import { auditorKeyOf } from '../audit/auditorKey.js'
import { byCookie, tokenFor } from '../console/consoleSession.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'
import { eventLogOf } from '../proofs/fixtures/eventLog.js'

const h = await startTestApp(t)

async function operatorKeyOf(h: TestApp): Promise<string> {
  const operators = await createOrganization(h.runtime.commands, { name: 'Deployment operators', environment: 'sandbox', actor: 'test' })
  const key = await createApiKey(h.runtime.commands, {
    organizationId: operators.organizationId,
    environment: 'sandbox',
    actor: 'test',
    role: 'OPERATOR',
  })
  h.secrets.add('API key', operators.apiKey)
  h.secrets.add('API key', key.apiKey)
  await h.runtime.runner.waitFor(key.position, 10_000)
  return key.apiKey
}

async function newCustomer(apiKey: string): Promise<string> {
  const reply = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    apiKey,
    payload: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      countryCode: 'US',
      taxIdentificationNumber: '123-45-6789',
    },
  })
  if (reply.statusCode !== 201) throw new Error(`customer: ${reply.statusCode} ${reply.body}`)
  return (JSON.parse(reply.body) as { id: string }).id
}

const operator = await operatorKeyOf(h)
const other = await h.newOrganization('Organization B')
const auditor = await auditorKeyOf(h, 'test')
const mine = await newCustomer(h.org.apiKey)
const theirs = await newCustomer(other.apiKey)
const json = <T>(body: string) => JSON.parse(body) as T

t.test('consumers: each group’s state, dead letters and lag', async (t) => {
  const reply = await h.request({ method: 'GET', url: '/v1/operator/consumers', apiKey: operator })
  t.equal(reply.statusCode, 200, reply.body)
  const body = json<{ status: string; groups: { name: string; status: string; deadLetters: number }[]; lag: { consumers: unknown[] } }>(
    reply.body,
  )
  t.same(
    body.groups.map((g) => g.name),
    [...CONSUMER_NAMES],
  )
  t.equal(body.status, 'ok')
  t.ok(
    body.groups.every((g) => g.status === 'ok' && g.deadLetters === 0),
    'all ok',
  )
  t.ok(body.lag.consumers.length >= CONSUMER_NAMES.length, 'each consumer’s lag')
})

t.test('parked events: the dead letters, without data', async (t) => {
  const [event] = await h.runtime.commands.store.readStream(streams.customer(theirs), { maxCount: 1 })
  await writeDeadLetters(h.runtime.db, [
    {
      consumer: SUBSCRIBER_CHECKPOINT,
      group: SUBSCRIBER_CHECKPOINT,
      event: event!,
      reason: 'failed',
      error: 'TypeError at map',
      attempts: 5,
    },
  ])
  const reply = await h.request({ method: 'GET', url: '/v1/operator/parked-events', apiKey: operator })
  t.equal(reply.statusCode, 200, reply.body)
  const body = json<{ data: Record<string, unknown>[]; total: number; truncated: boolean }>(reply.body)
  t.equal(body.total, 1)
  t.equal(body.truncated, false)
  t.same(body.data[0], {
    group: SUBSCRIBER_CHECKPOINT,
    consumer: SUBSCRIBER_CHECKPOINT,
    organizationId: other.organizationId,
    stream: streams.customer(theirs),
    streamRevision: '0',
    eventId: event!.id,
    eventType: event!.type,
    position: event!.position,
    reason: 'failed',
    failure: 'TypeError at map',
    attempts: 5,
    parkedAt: body.data[0]!.parkedAt,
  })
  t.notOk(reply.body.includes('Lovelace'), 'no event data')
  const filtered = await h.request({ method: 'GET', url: '/v1/operator/parked-events?group=workflows', apiKey: operator })
  t.same(json<{ data: unknown[]; total: number }>(filtered.body), { data: [], total: 0, truncated: false }, 'by group')
  const bad = await h.request({ method: 'GET', url: '/v1/operator/parked-events?limit=0', apiKey: operator })
  t.equal(bad.statusCode, 400)

  const consumers = json<{ status: string; groups: { name: string; status: string; deadLetters: number }[] }>(
    (await h.request({ method: 'GET', url: '/v1/operator/consumers', apiKey: operator })).body,
  )
  t.equal(consumers.status, 'degraded')
  t.match(
    consumers.groups.find((g) => g.name === SUBSCRIBER_CHECKPOINT),
    { status: 'parked', deadLetters: 1, deadLetterStreams: 1, deadLettersFailed: 1 },
  )
})

t.test('a resource’s history in any organization, masked as the audit history', async (t) => {
  for (const [customer, org, key] of [
    [mine, h.org.organizationId, h.org.apiKey],
    [theirs, other.organizationId, other.apiKey],
  ] as const) {
    const reply = await h.request({ method: 'GET', url: `/v1/operator/resources/${customer}/events`, apiKey: operator })
    t.equal(reply.statusCode, 200, reply.body)
    const page = json<{ data: Record<string, unknown>[]; has_more: boolean }>(reply.body)
    t.ok(page.data.length >= 1)
    t.ok(
      page.data.every((e) => e.organizationId === org),
      'each event names its organization',
    )
    t.notOk(reply.body.includes('123-45-6789'), 'the tax id is masked')
    const audit = json<{ data: Record<string, unknown>[] }>(
      (await h.request({ method: 'GET', url: `/v1/audit/resources/${customer}/events`, apiKey: key })).body,
    )
    t.same(
      page.data.map(({ organizationId: _organizationId, ...event }) => event),
      audit.data,
      'the same events, masked the same way, as the organization’s auditor reads them',
    )
  }
  const paged = await h.request({ method: 'GET', url: `/v1/operator/resources/${mine}/events?limit=1`, apiKey: operator })
  const first = json<{ next_cursor: string | null; data: { id: string }[] }>(paged.body)
  if (first.next_cursor) {
    const next = await h.request({
      method: 'GET',
      url: `/v1/operator/resources/${mine}/events?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`,
      apiKey: operator,
    })
    t.equal(next.statusCode, 200)
    t.not(json<{ data: { id: string }[] }>(next.body).data[0]?.id, first.data[0]!.id, 'the next page')
  }
  const unknown = await h.request({ method: 'GET', url: '/v1/operator/resources/cus_nobody/events', apiKey: operator })
  t.equal(unknown.statusCode, 404)
  const onBehalf = await h.request({
    method: 'GET',
    url: `/v1/operator/resources/${mine}/events`,
    apiKey: operator,
    headers: { 'x-on-behalf-of': mine },
  })
  t.ok(onBehalf.statusCode === 403 || onBehalf.statusCode === 404, `X-On-Behalf-Of refused (${onBehalf.statusCode})`)
})

const OPERATOR_URLS = ['/v1/operator/consumers', '/v1/operator/parked-events', () => `/v1/operator/resources/${mine}/events`]

t.test('every other key: 403 operator_key_required', async (t) => {
  for (const [who, key] of [
    ['full key', h.org.apiKey],
    ['auditor key', auditor.apiKey],
    ['another organization’s key', other.apiKey],
  ] as const) {
    for (const url of OPERATOR_URLS.map((u) => (typeof u === 'string' ? u : u()))) {
      const reply = await h.request({ method: 'GET', url, apiKey: key })
      t.equal(reply.statusCode, 403, `${who} ${url}`)
      t.match(json(reply.body), { code: 'operator_key_required' })
    }
  }
  const anonymous = await h.request({ method: 'GET', url: '/v1/operator/consumers', apiKey: null })
  t.equal(anonymous.statusCode, 401)
})

t.test('an operator key: 403 operator_key_not_allowed on every tenant route', async (t) => {
  const requests: { method: 'GET' | 'POST'; url: string; payload?: object }[] = [
    { method: 'GET', url: '/v1/customers' },
    { method: 'GET', url: `/v1/customers/${mine}` },
    { method: 'GET', url: `/v1/audit/resources/${mine}/events` },
    { method: 'GET', url: '/v1/webhooks/endpoints' },
    {
      method: 'POST',
      url: '/v1/customers/individuals',
      payload: { firstName: 'Op', lastName: 'Erator', email: 'op@example.com', countryCode: 'US' },
    },
    {
      method: 'POST',
      url: '/v1/customers/businesses',
      payload: { businessName: 'Acme Ltd', email: 'ops@acme.example', countryCode: 'US' },
    },
  ]
  for (const request of requests) {
    const requestId = `operator-probe-${request.method}-${requests.indexOf(request)}`
    const reply = await h.request({ ...request, apiKey: operator, headers: { 'x-request-id': requestId } })
    t.equal(reply.statusCode, 403, `${request.method} ${request.url}`)
    t.match(json(reply.body), { code: 'operator_key_not_allowed' })
    t.equal(await eventLogOf(h.runtime.pool).appendedBy([requestId]), 0, 'nothing appended')
  }
})

t.test('the console with an operator key: the same scope by cookie', async (t) => {
  const token = await tokenFor(h, operator)
  const who = json<{ role: string }>((await byCookie(h, token, { method: 'GET', url: '/console/session' })).body)
  t.equal(who.role, 'OPERATOR')
  t.equal((await byCookie(h, token, { method: 'GET', url: '/v1/operator/consumers' })).statusCode, 200)
  const tenant = await byCookie(h, token, { method: 'GET', url: '/v1/customers' })
  t.equal(tenant.statusCode, 403)
  t.match(json(tenant.body), { code: 'operator_key_not_allowed' })
  const full = await tokenFor(h, h.org.apiKey)
  const refused = await byCookie(h, full, { method: 'GET', url: '/v1/operator/consumers' })
  t.equal(refused.statusCode, 403, 'a full key’s session reaches no operator route')
  t.match(json(refused.body), { code: 'operator_key_required' })
})
