// Counterparty events through the webhook pipeline: counterparty.created and counterparty.deleted
// arrive signed, tagged with the counterparty, without the address.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

type Payload = { type: string; data: Record<string, unknown> }

t.test('created and deleted arrive as signed public events', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/cp'), filterTypes: ['counterparty.created', 'counterparty.deleted'] })
  const c = await createIndividual(h)
  const cp = (
    await h.request({
      method: 'POST',
      url: '/v1/counterparties',
      payload: {
        customerId: c.id,
        name: 'Jane Payee',
        beneficiaryType: 'INDIVIDUAL',
        address: { addressLine1: '1 Secret Lane', city: 'Austin', postalCode: '78701', country: 'US' },
      },
    })
  ).json()
  await h.request({ method: 'DELETE', url: `/v1/counterparties/${cp.id}` })
  await receiver.waitFor((r) => r.filter((x) => x.path === '/cp').length >= 2, 10_000, 'counterparty deliveries')
  const payloads = receiver.forPath('/cp').map((d) => verifyDelivery(ep.secret, d) as Payload)
  const created = payloads.find((p) => p.type === 'counterparty.created')
  t.same(created?.data, {
    id: cp.id,
    customerId: c.id,
    name: 'Jane Payee',
    beneficiaryType: 'INDIVIDUAL',
    isThirdParty: true,
    createdAt: cp.createdAt,
    updatedAt: cp.createdAt,
  })
  t.notMatch(JSON.stringify(payloads), 'Secret Lane', 'no street line in any payload')
  t.match(
    payloads.find((p) => p.type === 'counterparty.deleted'),
    { data: { id: cp.id } },
  )
  const messages = (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${cp.id}&page_size=10` })).json()
  t.equal(messages.data.length, 2, 'tagged with the counterparty id')
})
