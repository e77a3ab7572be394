// Delivery outcomes through HTTP with a real receiver: non-2xx, timeouts and network errors are
// retried on the schedule (fresh timestamp and signature each time) until a 2xx or the schedule
// ends; 3xx is not followed; 410 disables the endpoint; attempt records keep status, error,
// 20 000 body bytes, duration, trigger and next attempt; a bounded number of deliveries per
// endpoint run at once; resend and recover redeliver the same message id.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, appendProbe, createEndpoint, getMessage, probeMapper, sendTestEvent, settled } from './deliveryHelpers.js'
import { eventually, startReceiver, verifyDelivery } from './deliveryReceiver.js'

// The second wait is over a second, so consecutive attempts carry different webhook-timestamps.
const SCHEDULE = [0, 1_300, 30, 30]
const h = await startTestApp(
  t,
  { WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE.join(',') },
  {
    webhooks: {
      tuning: { ...FAST_DISPATCHER, requestTimeoutMs: 400, leaseMs: 1_500, perEndpointConcurrency: 2 },
      extraMappers: [probeMapper],
    },
  },
)
const receiver = await startReceiver()
t.teardown(() => receiver.close())

t.test('non-2xx is retried on the schedule, each attempt freshly signed, until a 2xx', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/flaky') })
  receiver.on('/flaky', (_req, nth) =>
    nth === 0 ? { status: 500, body: 'boom' } : nth === 1 ? { status: 503, body: 'busy' } : { status: 200, body: 'fine' },
  )
  const messageId = await sendTestEvent(h, ep.id)
  const message = await settled(h, messageId)
  t.same(
    message.attempts.map((a) => a.responseStatusCode),
    [500, 503, 200],
  )
  t.same(
    message.attempts.map((a) => a.responseBody),
    ['boom', 'busy', 'fine'],
  )
  t.same(
    message.deliveries.map((d) => [d.status, d.attemptCount]),
    [['SUCCEEDED', 3]],
  )
  t.ok(message.attempts.every((a) => a.trigger === 'SCHEDULED'))
  t.ok(message.attempts[0]!.nextAttemptAt && message.attempts[1]!.nextAttemptAt, 'failed attempts name the next attempt time')
  t.equal(message.attempts[2]!.nextAttemptAt, null)
  const waitedMs = Date.parse(message.attempts[1]!.timestamp) - Date.parse(message.attempts[0]!.timestamp)
  t.ok(waitedMs >= SCHEDULE[1]! * 0.8 - 50, `second attempt after the schedule's delay with jitter (${waitedMs} ms)`)

  const requests = receiver.forPath('/flaky')
  t.equal(requests.length, 3)
  t.ok(
    requests.every((r) => r.headers['webhook-id'] === messageId),
    'same webhook-id every time',
  )
  t.ok(
    requests.every((r) => r.body === requests[0]!.body),
    'same body every time',
  )
  t.not(requests[0]!.headers['webhook-timestamp'], requests[1]!.headers['webhook-timestamp'], 'fresh timestamp per attempt')
  t.not(requests[0]!.headers['webhook-signature'], requests[1]!.headers['webhook-signature'], 'fresh signature per attempt')
  for (const r of requests) t.ok(verifyDelivery(ep.secret, r), 'each attempt verifies')
})

t.test('3xx is not followed: recorded, retried, and failed when the schedule ends', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/moved') })
  receiver.on('/moved', () => ({ status: 302, headers: { location: receiver.url('/moved-here') } }))
  const message = await settled(h, await sendTestEvent(h, ep.id))
  t.same(
    message.attempts.map((a) => a.responseStatusCode),
    [302, 302, 302, 302],
    'one attempt per schedule entry',
  )
  t.same(
    message.deliveries.map((d) => d.status),
    ['FAILED'],
  )
  t.equal(message.attempts[3]!.nextAttemptAt, null, 'no attempt after the last')
  t.equal(receiver.forPath('/moved-here').length, 0, 'the redirect target was never called')
})

t.test('410 Gone disables the endpoint through the aggregate and stops retrying', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/gone') })
  receiver.on('/gone', () => ({ status: 410, body: 'gone' }))
  const message = await settled(h, await sendTestEvent(h, ep.id))
  t.same(
    message.attempts.map((a) => a.responseStatusCode),
    [410],
  )
  t.match(message.deliveries[0], { status: 'FAILED', lastError: /410/ })
  const endpoint = await eventually(
    async () => {
      const res = (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${ep.id}` })).json()
      return res.disabled ? res : undefined
    },
    5_000,
    'endpoint disabled',
  )
  t.equal(endpoint.disabled, true)
  const history = await h.runtime.store.readStream(`webhook_endpoint-${ep.id}`)
  t.match(history[history.length - 1], {
    type: 'WebhookEndpointUpdated',
    data: { disabled: true },
    metadata: { actor: 'system:webhook-dispatcher', causationId: message.id },
  })
  const again = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/test` })
  t.equal(again.statusCode, 409, 'no test event to a disabled endpoint')
  t.equal(again.json().code, 'webhook_endpoint_disabled')
  t.equal(receiver.forPath('/gone').length, 1)
})

t.test('network errors and timeouts: status 0 with the error text; body kept to 20 000 bytes', async (t) => {
  const closed = http.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const closedPort = (closed.address() as AddressInfo).port
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  const refused = await createEndpoint(h, { url: `http://127.0.0.1:${closedPort}/nobody` })
  const slow = await createEndpoint(h, { url: receiver.url('/slow') })
  receiver.on('/slow', () => ({ status: 200, delayMs: 2_000 }))
  const big = await createEndpoint(h, { url: receiver.url('/big') })
  receiver.on('/big', () => ({ status: 200, body: 'x'.repeat(50_000) }))

  const [r, s, b] = await Promise.all([refused, slow, big].map(async (ep) => settled(h, await sendTestEvent(h, ep.id))))
  t.equal(r!.attempts.length, SCHEDULE.length)
  t.ok(
    r!.attempts.every((a) => a.responseStatusCode === 0 && /ECONNREFUSED/.test(a.error ?? '')),
    'connection refused: status 0 and the error',
  )
  t.equal(r!.deliveries[0]!.status, 'FAILED')
  t.ok(
    s!.attempts.every((a) => a.responseStatusCode === 0 && /timed out after \d+ ms without a response/.test(a.error ?? '')),
    'timeout: status 0 and the error',
  )
  // The timeout ended each attempt (the error says so); the duration is at least the timeout and below the receiver's 2 s,
  // which a loaded CI machine can stretch a timer toward (1.5 s was seen exceeded), so no tighter bound.
  t.ok(
    s!.attempts.every((a) => a.durationMs! >= 380 && a.durationMs! < 2_000),
    `timeout duration recorded (${s!.attempts.map((a) => a.durationMs).join(', ')} ms)`,
  )
  t.equal(b!.attempts[0]!.responseBody.length, 20_000, 'first 20 000 bytes of the body')
  t.equal(b!.deliveries[0]!.status, 'SUCCEEDED')
})

t.test('a bounded number of deliveries to one endpoint at once', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/busy') })
  receiver.on('/busy', () => ({ status: 200, delayMs: 100 }))
  const ids = await Promise.all(Array.from({ length: 8 }, () => sendTestEvent(h, ep.id)))
  for (const id of ids) t.equal((await settled(h, id)).deliveries[0]!.status, 'SUCCEEDED')
  t.equal(receiver.forPath('/busy').length, 8, 'all delivered once')
  t.ok(receiver.maxConcurrent('/busy') <= 2, `at most 2 at once (saw ${receiver.maxConcurrent('/busy')})`)
  t.ok(receiver.maxConcurrent('/busy') >= 2, 'up to the limit in parallel')
})

t.test('resend: the original payload and id again, to one endpoint or to every subscribed one', async (t) => {
  const org = await h.newOrganization('Resender')
  const a = await createEndpoint(h, { url: receiver.url('/resend/a') }, org.apiKey)
  const b = await createEndpoint(h, { url: receiver.url('/resend/b'), filterTypes: ['transfer.completed'] }, org.apiKey)
  const messageId = await appendProbe(h, org.organizationId, 'transfer.completed', 'tfr_resend')
  await settled(h, messageId, org.apiKey)
  const resend = async (body?: object) =>
    h.request({ method: 'POST', url: `/v1/webhooks/messages/${messageId}/resend`, apiKey: org.apiKey, ...(body ? { payload: body } : {}) })

  const one = await resend({ endpointId: b.id })
  t.equal(one.statusCode, 202)
  t.same(one.json(), { messageId, endpointIds: [b.id] })
  await receiver.waitFor(() => receiver.forPath('/resend/b').length === 2, 5_000, 'resend to b')
  const [first, second] = receiver.forPath('/resend/b')
  t.equal(second!.headers['webhook-id'], messageId, 'same webhook-id')
  t.equal(second!.body, first!.body, 'same payload')
  t.ok(verifyDelivery(b.secret, second!))
  const afterOne = await settled(h, messageId, org.apiKey)
  t.same(
    afterOne.attempts.filter((x) => x.endpointId === b.id).map((x) => x.trigger),
    ['SCHEDULED', 'MANUAL'],
  )
  t.equal(receiver.forPath('/resend/a').length, 1, 'the other endpoint got nothing')

  const all = await resend()
  t.same(all.json().endpointIds.sort(), [a.id, b.id].sort())
  await receiver.waitFor(
    () => receiver.forPath('/resend/a').length === 2 && receiver.forPath('/resend/b').length === 3,
    5_000,
    'resend to all',
  )

  t.equal((await resend({ endpointId: 'ep_nope' })).statusCode, 404)
  await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${a.id}`, payload: { disabled: true }, apiKey: org.apiKey })
  t.equal((await resend({ endpointId: a.id })).statusCode, 409, 'not to a disabled endpoint')
  t.same((await resend()).json().endpointIds, [b.id], 'all = the enabled subscribed ones now')
  t.equal((await h.request({ method: 'POST', url: '/v1/webhooks/messages/evt_nope/resend', apiKey: org.apiKey })).statusCode, 404)
})

t.test('recover: every failed delivery in the window is redelivered in the background, others are not', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/recover') })
  let healthy = false
  receiver.on('/recover', () => (healthy ? { status: 200 } : { status: 500 }))
  const before = await sendTestEvent(h, ep.id)
  await settled(h, before)
  const inWindow = await Promise.all([sendTestEvent(h, ep.id), sendTestEvent(h, ep.id)])
  const failed = await Promise.all(inWindow.map((id) => settled(h, id)))
  t.ok(failed.every((m) => m.deliveries[0]!.status === 'FAILED'))
  // Sent concurrently: the earlier of the two opens the window.
  const since = failed.map((m) => m.timestamp).sort()[0]!

  healthy = true
  const res = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/recover`, payload: { since } })
  t.equal(res.statusCode, 202)
  t.match(res.json(), { id: /^rcv_/, endpointId: ep.id, since: new Date(since).toISOString(), status: 'RUNNING' })
  for (const id of inWindow) {
    const m = await eventually(
      async () => {
        const got = await getMessage(h, id)
        return got.deliveries[0]!.status === 'SUCCEEDED' ? got : undefined
      },
      5_000,
      'recovered',
    )
    t.same(
      m.attempts.map((a) => a.trigger),
      ['SCHEDULED', 'SCHEDULED', 'SCHEDULED', 'SCHEDULED', 'MANUAL'],
    )
    t.equal(m.attempts[4]!.responseStatusCode, 200)
  }
  t.equal((await getMessage(h, before)).deliveries[0]!.status, 'FAILED', 'a failure before `since` stays failed')
  const recovery = await eventually(
    async () => {
      const row = await h.runtime.db.selectFrom('webhook_recoveries').selectAll().where('id', '=', res.json().id).executeTakeFirst()
      return row?.status === 'COMPLETED' ? row : undefined
    },
    5_000,
    'recover completed',
  )
  t.equal(recovery.requeued, 2)

  const bad = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/recover`, payload: { since, until: since } })
  t.equal(bad.statusCode, 422, 'since must be before until')
  t.equal((await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/recover`, payload: {} })).statusCode, 400)
})

t.test('a resend during an attempt in flight wins: the delivery is sent again at once, not on the schedule', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/overtaken') })
  receiver.on('/overtaken', (_req, nth) => (nth === 0 ? { status: 500, delayMs: 300 } : { status: 200 }))
  const messageId = await sendTestEvent(h, ep.id)
  await receiver.waitFor(() => receiver.forPath('/overtaken').length === 1, 5_000, 'first attempt in flight')
  t.equal(
    (await h.request({ method: 'POST', url: `/v1/webhooks/messages/${messageId}/resend`, payload: { endpointId: ep.id } })).statusCode,
    202,
  )
  await receiver.waitFor(() => receiver.forPath('/overtaken').length === 2, 5_000, 'manual attempt')
  const [first, second] = receiver.forPath('/overtaken')
  t.ok(second!.receivedAt - first!.receivedAt < SCHEDULE[1]! * 0.8, 'not after the scheduled retry delay')
  const message = await settled(h, messageId)
  t.same(
    message.attempts.map((a) => [a.responseStatusCode, a.trigger]),
    [
      [500, 'SCHEDULED'],
      [200, 'MANUAL'],
    ],
  )
  t.same(
    message.deliveries.map((d) => [d.status, d.attemptCount]),
    [['SUCCEEDED', 2]],
  )
})

t.test('a delivery due after its endpoint was disabled or deleted fails without an attempt', async (t) => {
  const paused = await createEndpoint(h, { url: receiver.url('/paused') })
  const removed = await createEndpoint(h, { url: receiver.url('/removed') })
  receiver.on('/paused', () => ({ status: 500 }))
  receiver.on('/removed', () => ({ status: 500 }))
  const [p, r] = await Promise.all([sendTestEvent(h, paused.id), sendTestEvent(h, removed.id)])
  await receiver.waitFor(
    () => receiver.forPath('/paused').length === 1 && receiver.forPath('/removed').length === 1,
    5_000,
    'first attempts',
  )
  await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${paused.id}`, payload: { disabled: true } })
  await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${removed.id}` })
  const [pm, rm] = await Promise.all([settled(h, p), settled(h, r)])
  t.match(pm.deliveries[0], { status: 'FAILED', attemptCount: 1, lastError: 'endpoint disabled' })
  t.match(rm.deliveries[0], { status: 'FAILED', attemptCount: 1, lastError: 'endpoint deleted' })
  t.equal(receiver.forPath('/paused').length + receiver.forPath('/removed').length, 2, 'no second request')
})
