// Egress safety in production at delivery, through HTTP. Creation refuses what it can know
// (test/webhooks/endpointEgress.e2e.test.ts); a name that resolved to a public address then, and
// resolves to a loopback, private, link-local or metadata address now (DNS changed, or rebinding),
// is refused at every attempt without opening a connection. The attempt stores a fixed text; what the name
// resolved to is only in the server log, with the endpoint id.
import { Writable } from 'node:stream'
import pino from 'pino'
import t from 'tap'
import { newId } from '../../domain/shared/ids.js'
import { webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import { generateSigningSecret } from '../../domain/webhook-endpoint/signingSecret.js'
import { streams } from '../../events/streams.js'
import type { Resolver } from '../../webhooks/egress/resolveTarget.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint, settled } from './deliveryHelpers.js'
import { startReceiver } from './deliveryReceiver.js'

// Mutable: public answers at creation, the cases' answers before the deliveries.
const dns = new Map<string, string[]>()
const resolver: Resolver = async (host) => {
  const answers = dns.get(host)
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

const logLines: Record<string, unknown>[] = []
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  }),
)

const h = await startTestApp(
  t,
  { APP_ENV: 'production', WEBHOOK_RETRY_SCHEDULE_MS: '0,10' },
  {
    logger,
    webhooks: { tuning: FAST_DISPATCHER, resolver },
  },
)
const receiver = await startReceiver()
t.teardown(() => receiver.close())

const GENERIC = 'egress refused: destination not allowed'

t.test('production: a name that later resolves to a non-public address is refused at every attempt, with a generic reason', async (t) => {
  const port = receiver.port
  const cases: [string, string[], string][] = [
    [`https://rebind-loopback.example.test:${port}/hook`, ['127.0.0.1'], '127.0.0.1 (loopback)'],
    ['https://rebind-internal.example.test/hook', ['10.1.2.3'], '10.1.2.3 (private)'],
    ['https://rebind-metadata.example.test/latest/meta-data/', ['169.254.169.254'], '169.254.169.254 (link_local)'],
    ['https://rebind-mixed.example.test/hook', ['93.184.216.34', '192.168.1.10'], '192.168.1.10 (private)'],
    [`https://rebind-v6.example.test:${port}/hook`, ['::1'], '::1 (loopback)'],
    ['https://rebind-v6-metadata.example.test/hook', ['fd00:ec2::254'], 'fd00:ec2::254 (private)'],
  ]
  const endpoints = []
  for (const [url] of cases) dns.set(new URL(url).hostname, ['93.184.216.34'])
  for (const [url] of cases) endpoints.push(await createEndpoint(h, { url }))
  t.pass('every name was accepted at creation: each resolved to a public address then')
  for (const [url, answers] of cases) dns.set(new URL(url).hostname, answers)

  const messages = await Promise.all(
    endpoints.map(async (ep) => {
      const res = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/test` })
      t.equal(res.statusCode, 202)
      return settled(h, res.json().messageId)
    }),
  )
  for (const [i, [url, answers, detail]] of cases.entries()) {
    const m = messages[i]!
    const ep = endpoints[i]!
    t.equal(m.deliveries[0]!.status, 'FAILED', `${url}: failed`)
    t.equal(m.attempts.length, 2, `${url}: both scheduled attempts ran`)
    t.ok(
      m.attempts.every((a) => a.responseStatusCode === 0 && a.error === GENERIC),
      `${url}: every attempt stores the generic reason (${m.attempts[0]?.error})`,
    )
    const shown = JSON.stringify(m)
    for (const address of answers) t.notOk(shown.includes(address), `${url}: the message does not show ${address}`)
    const logged = logLines.filter((l) => (l.err as { endpointId?: string } | undefined)?.endpointId === ep.id)
    t.equal(logged.length, 2, `${url}: one log line per refused attempt, with the endpoint id`)
    t.match(
      logged[0],
      {
        msg: new RegExp(`endpoint ${ep.id} refused by the egress policy`),
        err: { message: `${new URL(url).hostname} resolves to ${detail}; production calls public addresses only`, messageId: m.id },
      },
      `${url}: the log has the detail`,
    )
  }
  t.equal(receiver.connections(), 0, 'no connection was ever opened to the receiver')
  t.equal(receiver.requests.length, 0)
})

t.test('production: an endpoint stored before creation checks existed is still refused at delivery', async (t) => {
  // Straight through the command runtime, as the API created endpoints before this check: the decider alone allows any https URL.
  const endpointId = newId('ep')
  const now = new Date().toISOString()
  const result = await h.runtime.commands.handle(
    webhookEndpointDecider,
    streams.webhookEndpoint(endpointId),
    {
      type: 'CreateWebhookEndpoint',
      organizationId: h.org.organizationId,
      endpointId,
      now,
      environment: 'production',
      secret: generateSigningSecret(),
      url: 'https://169.254.169.254/latest/meta-data/',
      description: '',
      filterTypes: [],
      metadata: {},
    },
    { organizationId: h.org.organizationId, requestId: newId('req'), actor: 'test' },
    { newStream: true },
  )
  await h.runtime.runner.waitFor(result.position, 10_000)
  const res = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${endpointId}/test` })
  t.equal(res.statusCode, 202)
  const m = await settled(h, res.json().messageId)
  t.ok(m.attempts.length > 0 && m.attempts.every((a) => a.error === GENERIC), 'refused with the generic reason')
  t.ok(
    logLines.some((l) => (l.err as { endpointId?: string; message?: string } | undefined)?.endpointId === endpointId),
    'and logged with the endpoint id',
  )
})

t.test('production endpoints must be https (refused at creation)', async (t) => {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: receiver.url('/plain') } })
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'webhook_url_https_required')
})
