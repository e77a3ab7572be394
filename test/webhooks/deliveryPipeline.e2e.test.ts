// Webhook delivery end to end through HTTP, real Postgres and a real local receiver: stored
// events become messages (evt_ + stored event id, spec envelope), fan out to subscribed enabled
// endpoints, are signed per Standard Webhooks (verified with the standardwebhooks package, also
// across a rotation), are idempotent across a replay, and are listed, filtered, paged and read
// through the messages API, per organization; old messages are purged by the retention job.
import t from 'tap'
import { sql } from 'kysely'
import { backgroundJobs, startBackgroundJobs } from '../../server/backgroundJobs.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, appendProbe, createEndpoint, getMessage, probeMapper, sendTestEvent, settled } from './deliveryHelpers.js'
import { eventually, startReceiver, verifyDelivery } from './deliveryReceiver.js'

const h = await startTestApp(
  t,
  { WEBHOOK_RETRY_SCHEDULE_MS: '0,20,20' },
  {
    webhooks: { tuning: FAST_DISPATCHER, extraMappers: [probeMapper] },
  },
)
const receiver = await startReceiver()
t.teardown(() => receiver.close())

t.test('a test event is stored, delivered signed with the spec envelope, and recorded', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/test-event') })
  const messageId = await sendTestEvent(h, ep.id)
  t.match(messageId, /^evt_[0-9a-f-]{36}$/)
  // The id is the stored event's: evt_ + its UUID.
  const stored = (await h.runtime.store.readAll({ maxCount: 10_000 })).filter((e) => e.id === messageId.slice(4))
  t.equal(stored.length, 1)
  t.equal(stored[0]!.type, 'WebhookTestRequested')
  t.match(stored[0]!.stream, /^webhook_test-/, 'on a stream of its own')

  await receiver.waitFor((r) => r.some((x) => x.path === '/test-event'), 5_000, 'test delivery')
  const [delivery] = receiver.forPath('/test-event')
  t.equal(delivery!.headers['webhook-id'], messageId, 'webhook-id is the message id')
  t.equal(delivery!.headers['content-type'], 'application/json')
  const payload = verifyDelivery(ep.secret, delivery!) as Record<string, unknown>
  t.match(payload, {
    id: messageId,
    apiVersion: '1.0',
    organizationId: h.org.organizationId,
    type: 'webhook.test',
    data: { endpointId: ep.id, eventType: 'webhook.test' },
  })
  t.same(Object.keys(payload), ['id', 'timestamp', 'apiVersion', 'organizationId', 'type', 'data'], 'exactly the envelope fields')
  t.equal(payload.timestamp, stored[0]!.recordedAt.toISOString(), 'timestamp is when the event was recorded')

  const message = await settled(h, messageId)
  t.same(message.payload, payload, 'GET shows the payload that was sent')
  t.same(
    message.deliveries.map((d) => [d.endpointId, d.status, d.attemptCount]),
    [[ep.id, 'SUCCEEDED', 1]],
  )
  t.equal(message.attempts.length, 1)
  t.match(message.attempts[0], {
    endpointId: ep.id,
    url: receiver.url('/test-event'),
    responseStatusCode: 200,
    responseBody: 'ok',
    error: null,
    trigger: 'SCHEDULED',
    nextAttemptAt: null,
  })
  t.ok(message.attempts[0]!.durationMs! >= 0 && message.attempts[0]!.durationMs! < 5_000, 'duration recorded')
  t.ok(Date.parse(message.attempts[0]!.timestamp) > 0, 'attempt timestamp')

  const named = await sendTestEvent(h, ep.id, undefined, 'transfer.completed')
  t.equal((await getMessage(h, named)).payload.type, 'webhook.test', 'still a webhook.test message')
  t.match((await getMessage(h, named)).payload.data, { eventType: 'transfer.completed' })
  const bad = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/test`, payload: { eventType: 'no.such' } })
  t.equal(bad.statusCode, 400)
  t.equal((await h.request({ method: 'POST', url: '/v1/webhooks/endpoints/ep_missing/test' })).statusCode, 404)
})

t.test('fan-out: enabled endpoints of the organization whose filter is empty or names the type', async (t) => {
  const org = await h.newOrganization('Fan-out')
  const other = await h.newOrganization('Someone else')
  const all = await createEndpoint(h, { url: receiver.url('/fan/all') }, org.apiKey)
  const customers = await createEndpoint(
    h,
    { url: receiver.url('/fan/customers'), filterTypes: ['customer.created', 'customer.updated'] },
    org.apiKey,
  )
  const transfers = await createEndpoint(h, { url: receiver.url('/fan/transfers'), filterTypes: ['transfer.completed'] }, org.apiKey)
  const disabled = await createEndpoint(h, { url: receiver.url('/fan/disabled') }, org.apiKey)
  await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${disabled.id}`, payload: { disabled: true }, apiKey: org.apiKey })
  const foreign = await createEndpoint(h, { url: receiver.url('/fan/foreign') }, other.apiKey)

  const messageId = await appendProbe(h, org.organizationId, 'customer.created', 'cus_fanout1')
  const message = await settled(h, messageId, org.apiKey)
  t.same(
    message.deliveries.map((d) => d.endpointId).sort(),
    [all.id, customers.id].sort(),
    'exactly the subscribed, enabled endpoints of the organization',
  )
  t.ok(message.deliveries.every((d) => d.status === 'SUCCEEDED'))
  for (const path of ['/fan/all', '/fan/customers']) {
    const [req] = receiver.forPath(path)
    t.equal(req?.headers['webhook-id'], messageId, `${path} received it`)
  }
  verifyDelivery(all.secret, receiver.forPath('/fan/all')[0]!)
  verifyDelivery(customers.secret, receiver.forPath('/fan/customers')[0]!)
  for (const path of ['/fan/transfers', '/fan/disabled', '/fan/foreign'])
    t.equal(receiver.forPath(path).length, 0, `${path} received nothing`)

  // An empty filter also receives a type nobody subscribed to by name.
  const balance = await settled(h, await appendProbe(h, org.organizationId, 'balance.credited', 'ba_1'), org.apiKey)
  t.same(
    balance.deliveries.map((d) => d.endpointId),
    [all.id],
  )
  t.ok(transfers.id && foreign.id)
})

t.test('idempotent on the message id: a replay from position 0 creates no message and sends nothing', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/replay') })
  const messageId = await sendTestEvent(h, ep.id)
  await settled(h, messageId)
  const count = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_messages`.execute(h.runtime.db)).rows[0]!.n)
  const deliveries = async () =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_deliveries`.execute(h.runtime.db)).rows[0]!.n)
  const before = { messages: await count(), deliveries: await deliveries(), requests: receiver.requests.length }

  // As after a lost checkpoint or a rebuild: the subscriber reads every event again.
  await h.runtime.webhooks.stop()
  await h.runtime.db.updateTable('consumer_checkpoints').set({ position: '' }).where('name', '=', 'webhook_messages').execute()
  await h.runtime.webhooks.start({ tuning: FAST_DISPATCHER, extraMappers: [probeMapper] })
  const head = await h.runtime.store.readAll({ maxCount: 10_000 })
  t.ok(await h.runtime.webhooks.waitForMessages(head[head.length - 1]!.position, 10_000), 'replayed to the head')
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.same({ messages: await count(), deliveries: await deliveries(), requests: receiver.requests.length }, before, 'nothing new')
  t.equal((await getMessage(h, messageId)).attempts.length, 1)
})

t.test('rotation: two v1 entries during the overlap, each verifies with its secret', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/rotated') })
  const rotated = (await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${ep.id}/secret/rotate` })).json()
  t.equal(rotated.previousSecrets[0].secret, ep.secret)
  await settled(h, await sendTestEvent(h, ep.id))
  const [req] = receiver.forPath('/rotated')
  const entries = req!.headers['webhook-signature']!.split(' ')
  t.equal(entries.length, 2, 'one entry per valid secret')
  t.ok(entries.every((e) => e.startsWith('v1,')))
  t.ok(verifyDelivery(rotated.secret, req!), 'verifies with the new secret')
  t.ok(verifyDelivery(ep.secret, req!), 'verifies with the previous secret')
  t.throws(() => verifyDelivery(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, req!), 'not with another secret')
})

t.test('messages API: newest first, cursor pages, filters by type, tag, time and endpoint (with its status)', async (t) => {
  const org = await h.newOrganization('Lister')
  const ep = await createEndpoint(h, { url: receiver.url('/list'), filterTypes: ['customer.created'] }, org.apiKey)
  const ids: string[] = []
  for (let i = 0; i < 5; i++)
    ids.push(await appendProbe(h, org.organizationId, i % 2 === 0 ? 'customer.created' : 'transfer.completed', `res_${i}`))
  const list = async (query: string) => {
    const res = await h.request({ method: 'GET', url: `/v1/webhooks/messages${query}`, apiKey: org.apiKey })
    t.equal(res.statusCode, 200, query)
    return res.json()
  }
  const p1 = await list('?page_size=2')
  t.same(
    p1.data.map((m: { id: string }) => m.id),
    [ids[4], ids[3]],
    'newest first',
  )
  t.equal(p1.has_more, true)
  t.equal(p1.data[0].payload.id, ids[4], 'items carry the payload')
  t.notOk('status' in p1.data[0], 'no status without endpointId')
  const p2 = await list(p1.page_next.replace('/v1/webhooks/messages', ''))
  t.same(
    p2.data.map((m: { id: string }) => m.id),
    [ids[2], ids[1]],
  )
  const back = await list(p2.page_prev.replace('/v1/webhooks/messages', ''))
  t.same(
    back.data.map((m: { id: string }) => m.id),
    [ids[4], ids[3]],
  )

  const customers = await list('?eventTypes=customer.created')
  t.same(
    customers.data.map((m: { id: string }) => m.id),
    [ids[4], ids[2], ids[0]],
  )
  const both = await list('?eventTypes=customer.created&eventTypes=transfer.completed&page_size=1')
  t.equal(both.data.length, 1)
  t.match(both.page_next, /eventTypes=customer.created%2Ctransfer.completed/, 'page links keep the filters')
  t.same(
    (await list('?tag=res_3')).data.map((m: { id: string }) => m.id),
    [ids[3]],
  )

  const third = await getMessage(h, ids[2]!, org.apiKey)
  t.same(
    (await list(`?since=${encodeURIComponent(third.timestamp)}`)).data.map((m: { id: string }) => m.id),
    [ids[4], ids[3], ids[2]],
  )
  t.same(
    (await list(`?until=${encodeURIComponent(third.timestamp)}`)).data.map((m: { id: string }) => m.id),
    [ids[1], ids[0]],
  )

  await eventually(
    async () => ((await getMessage(h, ids[4]!, org.apiKey)).deliveries[0]?.status === 'SUCCEEDED' ? true : undefined),
    5_000,
    'delivery',
  )
  const byEndpoint = await list(`?endpointId=${ep.id}`)
  t.same(
    byEndpoint.data.map((m: { id: string }) => m.id),
    [ids[4], ids[2], ids[0]],
    'only messages sent to that endpoint',
  )
  t.match(byEndpoint.data[0], { status: 'SUCCEEDED', attemptCount: 1, nextAttemptAt: null })

  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/messages?eventTypes=nope', apiKey: org.apiKey })).statusCode, 400)
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/messages?since=yesterday', apiKey: org.apiKey })).statusCode, 400)
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/messages?page_size=1001', apiKey: org.apiKey })).statusCode, 400)
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/messages?starting_after=evt_unknown', apiKey: org.apiKey })).statusCode, 422)
})

t.test("tenants never see each other's messages: 404 and empty lists", async (t) => {
  const a = await h.newOrganization('Tenant A')
  const b = await h.newOrganization('Tenant B')
  const epA = await createEndpoint(h, { url: receiver.url('/tenant-a') }, a.apiKey)
  const messageId = await sendTestEvent(h, epA.id, a.apiKey)
  t.equal((await getMessage(h, messageId, a.apiKey)).id, messageId)
  for (const [method, url, payload] of [
    ['GET', `/v1/webhooks/messages/${messageId}`, undefined],
    ['POST', `/v1/webhooks/messages/${messageId}/resend`, {}],
    ['POST', `/v1/webhooks/endpoints/${epA.id}/test`, undefined],
    ['POST', `/v1/webhooks/endpoints/${epA.id}/recover`, { since: '2020-01-01T00:00:00Z' }],
  ] as const) {
    const res = await h.request({ method, url, apiKey: b.apiKey, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url} as B`)
  }
  const listB = (await h.request({ method: 'GET', url: '/v1/webhooks/messages', apiKey: b.apiKey })).json()
  t.same(listB.data, [], 'B lists nothing')
  const filtered = await h.request({ method: 'GET', url: `/v1/webhooks/messages?endpointId=${epA.id}`, apiKey: b.apiKey })
  t.equal(filtered.statusCode, 404, "A's endpoint id is no filter for B: the 404 of an unknown endpoint (issue 24, D6)")
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/webhooks/messages?starting_after=${messageId}`, apiKey: b.apiKey })).statusCode,
    422,
    "A's id is no cursor for B",
  )
})

t.test('retention: the scheduled job purges messages and attempts older than 90 days, and only those', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/retention') })
  const old = await sendTestEvent(h, ep.id)
  const recent = await sendTestEvent(h, ep.id)
  await settled(h, old)
  await settled(h, recent)
  await h.runtime.db
    .updateTable('webhook_messages')
    .set({ created_at: sql<Date>`now() - interval '91 days'` })
    .where('id', '=', old)
    .execute()
  // The server's retention job, from its one list of background jobs, on a short interval.
  const retention = backgroundJobs.filter((j) => j.name === 'webhook-retention').map((j) => ({ ...j, intervalMs: 100 }))
  t.equal(retention.length, 1, 'webhook retention is one of the background jobs')
  const jobs = startBackgroundJobs(
    {
      db: h.runtime.db,
      schedulerDb: h.runtime.schedulerDb,
      commands: h.runtime.commands,
      auditSealing: h.runtime.auditSealing,
      log: { error: (obj, msg) => t.fail(msg, obj) },
    },
    retention,
  )
  t.teardown(() => jobs.stop())
  await eventually(
    async () => ((await h.request({ method: 'GET', url: `/v1/webhooks/messages/${old}` })).statusCode === 404 ? true : undefined),
    5_000,
    'purge',
  )
  const left = await sql<{
    n: string
  }>`SELECT (SELECT count(*) FROM webhook_attempts WHERE message_id = ${old})
    + (SELECT count(*) FROM webhook_deliveries WHERE message_id = ${old}) AS n`.execute(h.runtime.db)
  t.equal(Number(left.rows[0]!.n), 0, 'its deliveries and attempts went with it')
  t.equal((await getMessage(h, recent)).attempts.length, 1, 'a recent message stays')
})
