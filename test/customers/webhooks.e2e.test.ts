// Customer and verification events through the webhook pipeline: a real receiver gets signed
// customer.created (data exactly the spec's fields), customer.status_changed, customer.verified,
// customer.updated and verification.* deliveries, tagged with the customer id.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { completeIndividualBody, createIndividual, saveVerification } from './fixtures.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

type Payload = { id: string; type: string; organizationId: string; data: Record<string, unknown> }

t.test('the customer lifecycle arrives as signed public events', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/customers') })
  const c = await createIndividual(h, { countryCode: 'US' })
  await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification_sessions`, payload: { sendInvite: true } })
  await saveVerification(h, c.id, await completeIndividualBody(h, c.id), true)
  await h.request({ method: 'POST', url: `/v1/sandbox/customers/${c.id}/simulate-review`, payload: { outcome: 'APPROVED' } })
  const expected = [
    'customer.created',
    'verification.session.created',
    'verification.link.sent',
    'customer.updated',
    'customer.status_changed',
    'verification.session.submitted',
    'customer.status_changed',
    'customer.verified',
    'verification.session.completed',
  ]
  await receiver.waitFor((r) => r.filter((x) => x.path === '/customers').length >= expected.length, 10_000, 'customer deliveries')
  const payloads = receiver.forPath('/customers').map((d) => verifyDelivery(ep.secret, d) as Payload)
  t.same([...payloads.map((p) => p.type)].sort(), [...expected].sort(), 'every public event, once')
  const created = payloads.find((p) => p.type === 'customer.created')!
  t.same(
    Object.keys(created.data).sort(),
    ['countryCode', 'createdAt', 'customerName', 'email', 'id', 'status', 'type', 'updatedAt'],
    "customer.created data: exactly the spec's fields",
  )
  t.match(created, {
    organizationId: h.org.organizationId,
    data: { id: c.id, customerName: 'Ada Lovelace', email: 'ada@example.com', type: 'INDIVIDUAL', status: 'DRAFT', countryCode: 'US' },
  })
  t.match(
    payloads.find((p) => p.type === 'customer.verified'),
    { data: { id: c.id, status: 'APPROVED' } },
  )
  const messages = (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${c.id}&page_size=100` })).json()
  t.equal(messages.data.length, expected.length, 'messages are tagged with the customer id')
})

t.test('filters: an endpoint for customer.deleted only gets the deletion', async (t) => {
  await createEndpoint(h, { url: receiver.url('/deleted'), filterTypes: ['customer.deleted'] })
  const c = await createIndividual(h)
  await h.request({ method: 'DELETE', url: `/v1/customers/${c.id}` })
  await receiver.waitFor((r) => r.some((x) => x.path === '/deleted'), 10_000, 'deleted delivery')
  const got = receiver.forPath('/deleted').map((d) => JSON.parse(d.body) as Payload)
  t.same(
    got.map((p) => [p.type, p.data.id]),
    [['customer.deleted', c.id]],
  )
})
