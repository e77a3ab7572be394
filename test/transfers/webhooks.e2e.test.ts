// transfer.* events through the webhook pipeline to a real receiver, signed: created (the whole
// transfer, source.originator null), processing when the deposit arrives (the remitter), updated
// for each leg and for a review after funds (data.status IN_REVIEW, source.originator), completed,
// failed (only before funds), cancelled, reversed, refund_initiated and refund_completed; each
// with agentId (null: no agent acted).
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { advance, advanceUntil, approvedCustomer, created, eventually, simulateDeposit, usBankAccount } from './transferWorld.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())

type Payload = { id: string; type: string; data: Record<string, unknown> & { id: string; status: string } }

t.test('every transfer.* event fires at its moment', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/transfers'), filterTypes: [] })
  const alice = await approvedCustomer(h)
  const bank = await usBankAccount(h, alice)
  const body = (sourceAmount: string) => ({
    sourceCustomerId: alice,
    source: { paymentRail: 'WIRE', currency: 'USD', externalAccountId: bank },
    destination: { accountId: bank, paymentRail: 'WIRE' },
    sourceAmount,
  })
  const originator = { name: 'Grace Hopper', bankName: 'Navy Federal', routingNumber: '256074974', accountNumber: '7654321098' }

  const happy = await created(h, body('1000'))
  await simulateDeposit(h, happy.id, { originator })
  await advanceUntil(h, happy.id, 'COMPLETED')
  const failed = await created(h, body('1313'))
  await advance(h, failed.id)
  const cancelled = await created(h, body('1000'))
  await h.request({ method: 'POST', url: `/v1/transfers/${cancelled.id}/cancel` })
  const reviewed = await created(h, body('3131'))
  await simulateDeposit(h, reviewed.id, { originator })
  await advance(h, reviewed.id)
  await h.request({ method: 'POST', url: `/v1/transfers/${reviewed.id}/refund` })

  const of = (id: string) =>
    receiver
      .forPath('/transfers')
      .map((d) => verifyDelivery(ep.secret, d) as Payload)
      .filter((p) => p.type.startsWith('transfer.') && p.data.id === id)
  await receiver.waitFor(
    () =>
      of(reviewed.id).some((p) => p.type === 'transfer.refund_initiated') && of(reviewed.id).some((p) => p.type === 'transfer.reversed'),
    15_000,
    'the refund initiated',
  )
  await receiver.waitFor(() => of(happy.id).some((p) => p.type === 'transfer.completed'), 15_000, 'completed')

  const types = (id: string) => [...new Set(of(id).map((p) => p.type))].sort()
  t.same(types(happy.id), ['transfer.completed', 'transfer.created', 'transfer.processing', 'transfer.updated'], 'the happy path')
  const createdEvent = of(happy.id).find((p) => p.type === 'transfer.created')!
  t.match(
    createdEvent.data,
    { id: happy.id, status: 'PENDING', flow: 'FIAT_TO_FIAT', agentId: null, source: { originator: null } },
    'created: the whole transfer',
  )
  t.ok(Array.isArray(createdEvent.data.legs), 'with its legs')
  const processing = of(happy.id).find((p) => p.type === 'transfer.processing')!
  t.match(processing.data, {
    status: 'PROCESSING',
    agentId: null,
    source: { originator: { name: null, bankName: 'Navy Federal', accountNumber: '1098' } },
  })
  const updates = of(happy.id).filter((p) => p.type === 'transfer.updated')
  t.ok(updates.length >= 2, 'an update per leg step')
  t.ok(
    updates.every((u) => (u.data.source as { originator: { routingNumber: string } }).originator.routingNumber === '256074974'),
    'updated carries source.originator',
  )
  t.notOk(JSON.stringify(of(happy.id)).includes('7654321098'), 'never the full account number')
  t.notOk(JSON.stringify(of(happy.id)).includes('Grace Hopper'), 'nor the name (the webhook history keeps no sensitive value)')

  t.same(types(failed.id), ['transfer.created', 'transfer.failed'], 'failed before funds: transfer.failed')
  t.same(types(cancelled.id), ['transfer.cancelled', 'transfer.created'])
  const review = of(reviewed.id).find((p) => p.type === 'transfer.updated' && p.data.status === 'IN_REVIEW')
  t.ok(review, 'a problem after funds: transfer.updated with data.status IN_REVIEW')
  t.notOk(
    of(reviewed.id).some((p) => p.type === 'transfer.failed'),
    'never transfer.failed after funds',
  )
  t.ok(
    of(reviewed.id).some((p) => p.type === 'transfer.reversed'),
    'reversed by the refund',
  )
  t.ok(
    of(reviewed.id).some((p) => p.type === 'transfer.refund_initiated'),
    'refund initiated',
  )
  // The REFUND_FIAT transfer runs on; its completion completes the parent's refund.
  // Created by a workflow after the refund was initiated: listed once it ran and the read model caught up.
  const listRefunds = async () =>
    ((await h.request({ method: 'GET', url: `/v1/transfers?flow=REFUND_FIAT` })).json() as { data: { id: string }[] }).data
  const refundId = (await eventually(listRefunds, (data) => data.length > 0, 'the refund transfer').catch(() => []))[0]?.id
  if (refundId) {
    await advanceUntil(h, refundId, 'COMPLETED')
    await receiver.waitFor(() => of(reviewed.id).some((p) => p.type === 'transfer.refund_completed'), 15_000, 'refund completed')
    t.pass('refund_completed')
  } else t.fail('the refund transfer is listed')

  const reversedTransfer = await created(h, body('1000'))
  await simulateDeposit(h, reversedTransfer.id)
  await advanceUntil(h, reversedTransfer.id, 'COMPLETED')
  await h.request({ method: 'POST', url: `/v1/sandbox/transfers/${reversedTransfer.id}/reverse` })
  await receiver.waitFor(() => of(reversedTransfer.id).some((p) => p.type === 'transfer.reversed'), 15_000, 'reversed')
  t.pass('transfer.reversed after completion')
})
