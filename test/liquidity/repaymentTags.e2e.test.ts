// Issue 24, D2: a repayment that settles more than 20 draws once threw "A message may carry at most
// 20 tags" in the webhook subscriber, which stopped every organization's webhooks. Its message now
// exists with the first 20 tags (the repayment's own id, then its draws oldest first), the
// subscriber stays healthy, and another organization's webhooks keep flowing.
import t from 'tap'
import { WEBHOOK_LIMITS } from '../../webhooks/limits.js'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, type MessageDetail, createEndpoint, getMessage } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { readyFacility } from './fixtures.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

/** One more draw than a message has tags. */
const DRAWS = WEBHOOK_LIMITS.maxTagsPerMessage + 1

t.test('a repayment settling 21 draws is published with 20 tags and stops nobody', async (t) => {
  const other = await h.newOrganization('Another tenant')
  const otherEndpoint = await createEndpoint(h, { url: receiver.url('/other'), filterTypes: ['liquidity.draw.created'] }, other.apiKey)
  await readyFacility(h)
  await readyFacility(h, undefined, other)

  const drawIds: string[] = []
  for (let i = 0; i < DRAWS; i++) {
    const drawn = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1' } })
    t.equal(drawn.statusCode, 201, `draw ${i + 1}`)
    drawIds.push(drawn.json().id as string)
  }
  // One minor unit each at 1.5 bps an hour: no fee, so 21 repays every draw.
  const repaid = await h.request({ method: 'POST', url: '/v1/liquidity/facility/repayments', payload: { amount: String(DRAWS) } })
  t.equal(repaid.statusCode, 201)
  const repaymentId = repaid.json().id as string

  // Recorded after the repayment: the subscriber reads in commit order, so it must pass the repayment to send this.
  const otherDraw = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '5' }, apiKey: other.apiKey })
  t.equal(otherDraw.statusCode, 201)
  await receiver.waitFor((r) => r.some((x) => x.path === '/other'), 10_000, "the other organization's draw webhook")
  const delivered = verifyDelivery(otherEndpoint.secret, receiver.forPath('/other')[0]!) as { type: string; data: { id: string } }
  t.match(delivered, { type: 'liquidity.draw.created', data: { id: otherDraw.json().id } }, "another organization's webhooks flow")

  const listed = (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${repaymentId}&page_size=10` })).json()
  const messages = (listed.data as MessageDetail[]).filter((m) => m.type === 'liquidity.repayment.created')
  t.equal(messages.length, 1, 'the repayment message exists')
  const message = await getMessage(h, messages[0]!.id)
  t.same(message.tags, [repaymentId, ...drawIds.slice(0, WEBHOOK_LIMITS.maxTagsPerMessage - 1)], 'its id, then the oldest 19 draws')
  const payload = message.payload as { data: { draws: unknown[] } }
  t.equal(payload.data.draws.length, DRAWS, 'the payload still names every draw it paid')

  const health = (await h.request({ method: 'GET', url: '/health', apiKey: null })).json() as {
    status: string
    consumers: { name: string; status: string }[]
  }
  t.same(
    health.consumers.find((c) => c.name === 'webhook_messages'),
    { name: 'webhook_messages', status: 'ok' },
    'the webhook subscriber is healthy',
  )
  t.equal(health.status, 'ok')
})
