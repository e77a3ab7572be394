// Draws and repayments through the webhook pipeline: a real receiver gets signed
// liquidity.draw.created (the draw as GET showed it when taken) and liquidity.repayment.created (the
// repayment record), tagged with the draw and repayment ids.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { readyFacility } from './fixtures.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

type Payload = { id: string; type: string; organizationId: string; data: Record<string, unknown> }

t.test('a draw and its repayment arrive as signed public events', async (t) => {
  const ep = await createEndpoint(h, {
    url: receiver.url('/liquidity'),
    filterTypes: ['liquidity.draw.created', 'liquidity.repayment.created'],
  })
  const treasury = await readyFacility(h)
  const drawn = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount: '1000000', reference: 'r1' } })
  t.equal(drawn.statusCode, 201)
  const owed = BigInt(drawn.json().feeDue.value) + 1_000_000n
  const repaid = await h.request({ method: 'POST', url: '/v1/liquidity/facility/repayments', payload: { amount: owed.toString() } })
  t.equal(repaid.statusCode, 201)
  await receiver.waitFor((r) => r.filter((x) => x.path === '/liquidity').length >= 2, 10_000, 'liquidity deliveries')
  const payloads = receiver.forPath('/liquidity').map((d) => verifyDelivery(ep.secret, d) as Payload)
  const draw = payloads.find((p) => p.type === 'liquidity.draw.created')
  t.same(draw?.data, drawn.json(), 'the draw as the POST answered it')
  t.match(draw, { organizationId: h.org.organizationId, data: { payoutTreasuryId: treasury } })
  const repayment = payloads.find((p) => p.type === 'liquidity.repayment.created')
  t.same(repayment?.data, repaid.json(), 'the repayment record')
  const tagged = (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${drawn.json().id}&page_size=10` })).json()
  t.equal(tagged.data.length, 2, 'both messages are tagged with the draw id')
})
