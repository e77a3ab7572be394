// Issue 24, D12: webhook host names in production, with an injected resolver (this machine has no
// DNS: every real lookup answers ENOTFOUND, which is how the issue saw `127.0.0.1.nip.io`,
// `localtest.me` and `metadata.google.internal` accepted). A name is resolved at creation, at
// update and at every delivery: a private answer is refused (422 at creation and update, the
// generic egress reason at delivery), a name with no address is refused at creation and update,
// a private-use name (`.internal`, a single label) is refused before any lookup, and a lookup
// that does not answer in time is still accepted, to be checked at each delivery.
import t, { type Test } from 'tap'
import { newId } from '../../domain/shared/ids.js'
import { webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import { streams } from '../../events/streams.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint, settled } from './deliveryHelpers.js'
import { startReceiver } from './deliveryReceiver.js'

const ISSUE_NAMES = ['127.0.0.1.nip.io', 'localtest.me', 'metadata.google.internal'] as const
const PRIVATE_ANSWERS: Record<(typeof ISSUE_NAMES)[number], string> = {
  '127.0.0.1.nip.io': '127.0.0.1',
  'localtest.me': '127.0.0.1',
  'metadata.google.internal': '169.254.169.254',
}
const PUBLIC_ADDRESS = '93.184.215.14'
const HANGING = 'slow.example.test'
/** The creation lookup's bound (EGRESS_LIMITS.creationLookupTimeoutMs) with room for a loaded machine. */
const SLOW_LOOKUP_ANSWER_WITHIN_MS = 5_000
const GENERIC = 'egress refused: destination not allowed'

/** A resolver over a mutable table: a listed name answers its addresses, HANGING never answers, any other name is ENOTFOUND. */
function fakeDns(initial: Record<string, string[]>): { resolver: Resolver; table: Map<string, string[]> } {
  const table = new Map(Object.entries(initial))
  const resolver: Resolver = (host) => {
    if (host === HANGING) return new Promise(() => undefined)
    const answers = table.get(host)
    if (!answers) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))
    return Promise.resolve(answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) })))
  }
  return { resolver, table }
}

const create = (h: TestApp, url: string) => h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url } })
const update = (h: TestApp, id: string, url: string) =>
  h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: { url, description: 'changed' } })

function assertRefused(t: Test, res: Awaited<ReturnType<typeof create>>, what: string, code: string): void {
  t.equal(res.statusCode, 422, `${what}: 422`)
  const body = res.json()
  t.match(body, { error: 'ValidationError', code, statusCode: 422 }, `${what}: ${code}`)
  t.same(
    body.details?.map((d: { field: string }) => d.field),
    ['body.url'],
    `${what}: details name body.url`,
  )
  for (const address of Object.values(PRIVATE_ANSWERS)) {
    if (!what.includes(address)) t.notOk(res.body.includes(address), `${what}: the answer does not show ${address}`)
  }
}

t.test('names that resolve to private addresses: 422 at creation and at update', async (t) => {
  const dns = fakeDns({
    ...Object.fromEntries(Object.entries(PRIVATE_ANSWERS).map(([name, address]) => [name, [address]])),
    'hooks.example.com': [PUBLIC_ADDRESS],
  })
  const h = await startTestApp(t, { APP_ENV: 'production' }, { resolver: dns.resolver })
  const created = await create(h, 'https://hooks.example.com/hook')
  t.equal(created.statusCode, 201, 'a public answer is accepted')
  for (const name of ISSUE_NAMES) {
    assertRefused(t, await create(h, `https://${name}/hook`), `create ${name}`, 'webhook_url_not_allowed')
    assertRefused(t, await update(h, created.json().id, `https://${name}/hook`), `update to ${name}`, 'webhook_url_not_allowed')
  }
  const after = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${created.json().id}` })
  t.same(after.json(), created.json(), 'the endpoint is unchanged')
})

t.test('names with no address (as on a machine without DNS) and private-use names: 422 at creation and at update', async (t) => {
  const dns = fakeDns({ 'hooks.example.com': [PUBLIC_ADDRESS] })
  const h = await startTestApp(t, { APP_ENV: 'production' }, { resolver: dns.resolver })
  const created = (await create(h, 'https://hooks.example.com/hook')).json()
  const cases: [string, string][] = [
    ['127.0.0.1.nip.io', 'webhook_url_unresolvable'],
    ['localtest.me', 'webhook_url_unresolvable'],
    ['metadata.google.internal', 'webhook_url_not_allowed'],
    ['metadata', 'webhook_url_not_allowed'],
    ['printer.local', 'webhook_url_not_allowed'],
    ['router.home.arpa', 'webhook_url_not_allowed'],
  ]
  for (const [name, code] of cases) {
    assertRefused(t, await create(h, `https://${name}/hook`), `create ${name}`, code)
    assertRefused(t, await update(h, created.id, `https://${name}/hook`), `update to ${name}`, code)
  }
  const list = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=100' })
  t.same(
    list.json().data.map((e: { url: string }) => e.url),
    ['https://hooks.example.com/hook'],
    'nothing was created or changed',
  )
})

t.test('a private-use name is refused before any lookup; a slow lookup is still accepted', async (t) => {
  const dns = fakeDns({})
  const h = await startTestApp(t, { APP_ENV: 'production' }, { resolver: dns.resolver })
  let asked = 0
  const counting: Resolver = (host) => {
    asked++
    return dns.resolver(host)
  }
  const counted = await startTestApp(t, { APP_ENV: 'production' }, { resolver: counting })
  assertRefused(
    t,
    await create(counted, 'https://metadata.google.internal./computeMetadata/v1/'),
    'a trailing dot',
    'webhook_url_not_allowed',
  )
  assertRefused(t, await create(counted, 'https://Metadata.Google.Internal/'), 'upper case', 'webhook_url_not_allowed')
  t.equal(asked, 0, 'no lookup for a private-use name')
  const started = Date.now()
  const slow = await create(h, `https://${HANGING}/hook`)
  t.equal(slow.statusCode, 201, 'a name whose lookup does not answer in time is accepted (each delivery checks it)')
  t.ok(Date.now() - started < SLOW_LOOKUP_ANSWER_WITHIN_MS, `within the creation lookup's bound (${Date.now() - started} ms)`)
})

t.test('at delivery: a name that now resolves privately, and a private-use name stored earlier, are refused', async (t) => {
  const dns = fakeDns({ 'localtest.me': [PUBLIC_ADDRESS] })
  const h = await startTestApp(
    t,
    { APP_ENV: 'production', WEBHOOK_RETRY_SCHEDULE_MS: '0,10' },
    { webhooks: { tuning: FAST_DISPATCHER, resolver: dns.resolver }, printRuntimeErrors: false },
  )
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  // Public when the endpoint was created; loopback now (DNS changed, or rebinding).
  const rebinding = await createEndpoint(h, { url: `https://localtest.me:${receiver.port}/hook` })
  dns.table.set('localtest.me', ['127.0.0.1'])
  // Stored straight through the command runtime, as endpoints were before the creation check knew private-use names.
  const endpointId = newId('ep')
  const stored = await h.runtime.commands.handle(
    webhookEndpointDecider,
    streams.webhookEndpoint(endpointId),
    {
      type: 'CreateWebhookEndpoint',
      organizationId: h.org.organizationId,
      endpointId,
      now: new Date().toISOString(),
      environment: 'production',
      secret: generateSigningSecret(),
      url: 'https://metadata.google.internal/computeMetadata/v1/',
      description: '',
      filterTypes: [],
      metadata: {},
    },
    { organizationId: h.org.organizationId, requestId: newId('req'), actor: 'test' },
    { newStream: true },
  )
  await h.runtime.runner.waitFor(stored.position, 10_000)
  for (const id of [rebinding.id, endpointId]) {
    const sent = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/test` })
    t.equal(sent.statusCode, 202)
    const message = await settled(h, sent.json().messageId)
    t.equal(message.deliveries[0]?.status, 'FAILED', `${id}: failed`)
    t.ok(
      message.attempts.length > 0 && message.attempts.every((a) => a.responseStatusCode === 0 && a.error === GENERIC),
      `${id}: every attempt refused by the egress policy (${message.attempts[0]?.error})`,
    )
  }
  t.equal(receiver.connections(), 0, 'no connection was opened')
})
