// Egress safety in production, through HTTP: a delivery whose URL is a literal or a name
// resolving to a loopback, private, link-local or metadata address is refused without opening a
// connection, recorded as status 0 with the reason, and never reaches the receiver.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { type Resolver, systemResolver } from '../../webhooks/egress/resolveTarget.js'
import { FAST_DISPATCHER, createEndpoint, settled } from './deliveryHelpers.js'
import { startReceiver } from './deliveryReceiver.js'

const FAKE_DNS: Record<string, string[]> = {
  'loopback.example.test': ['127.0.0.1'],
  'internal.example.test': ['10.1.2.3'],
  'metadata.example.test': ['169.254.169.254'],
  'mixed.example.test': ['93.184.216.34', '192.168.1.10'],
  'v6-local.example.test': ['::1'],
}
const resolver: Resolver = async (host) => {
  const answers = FAKE_DNS[host]
  return answers ? answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) : systemResolver(host)
}

const h = await startTestApp(t, { APP_ENV: 'production', WEBHOOK_RETRY_SCHEDULE_MS: '0,10' }, {
  webhooks: { tuning: FAST_DISPATCHER, resolver },
})
const receiver = await startReceiver()
t.teardown(() => receiver.close())

t.test('production refuses non-public targets without connecting', async (t) => {
  const port = receiver.port
  const cases: [string, RegExp][] = [
    [`https://localhost:${port}/hook`, /localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/],
    [`https://127.0.0.1:${port}/hook`, /127\.0\.0\.1 \(loopback\)/],
    [`https://[::1]:${port}/hook`, /::1 \(loopback\)/],
    [`https://loopback.example.test:${port}/hook`, /127\.0\.0\.1 \(loopback\)/],
    ['https://internal.example.test/hook', /10\.1\.2\.3 \(private\)/],
    ['https://10.0.0.7/hook', /10\.0\.0\.7 \(private\)/],
    ['https://metadata.example.test/latest/meta-data/', /169\.254\.169\.254 \(link_local\)/],
    ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 \(link_local\)/],
    ['https://mixed.example.test/hook', /192\.168\.1\.10 \(private\)/],
    ['https://v6-local.example.test/hook', /::1 \(loopback\)/],
  ]
  const messages = await Promise.all(cases.map(async ([url]) => {
    const ep = await createEndpoint(h, { url })
    const res = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/test` })
    t.equal(res.statusCode, 202, url)
    return settled(h, res.json().messageId)
  }))
  for (const [i, [url, reason]] of cases.entries()) {
    const m = messages[i]!
    t.equal(m.deliveries[0]!.status, 'FAILED', `${url}: failed`)
    t.ok(m.attempts.length === 2 && m.attempts.every((a) => a.responseStatusCode === 0 && a.error?.startsWith('egress refused:') && reason.test(a.error)), `${url}: refused (${m.attempts[0]?.error})`)
  }
  t.equal(receiver.connections(), 0, 'no connection was ever opened to the receiver')
  t.equal(receiver.requests.length, 0)
})

t.test('production endpoints must be https (the endpoint aggregate refuses http)', async (t) => {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: receiver.url('/plain') } })
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'webhook_url_https_required')
})
