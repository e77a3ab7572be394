// balance.credited and balance.debited through the webhook pipeline end to end: a credit (deposit
// or draw), a settled payout and a reversal each become one signed delivery with the designed
// payload; holds and releases (money staying inside the account) send nothing.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { FAST_DISPATCHER, createEndpoint } from '../webhooks/deliveryHelpers.js'
import { startReceiver, verifyDelivery } from '../webhooks/deliveryReceiver.js'
import { balanceSeeder, newCustomer } from './fixtures.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,20,20' }, { webhooks: { tuning: FAST_DISPATCHER } })
const receiver = await startReceiver()
t.teardown(() => receiver.close())
const seed = balanceSeeder(h)
const ORG = h.org.organizationId
const usd = (value: string) => ({ currency: 'USD', exponent: 2, value, displayValue: (Number(value) / 100).toFixed(2) })

t.test('credits, payouts and reversals are delivered signed; holds and releases are not', async (t) => {
  const ep = await createEndpoint(h, { url: receiver.url('/balance'), filterTypes: ['balance.credited', 'balance.debited'] })
  const account = await seed.open(ORG, await newCustomer(h))
  const credited = await seed.credit(ORG, account, 5_000n, 'dep_hook')
  await seed.hold(ORG, account, 'hld_hook', 1_200n)
  await seed.hold(ORG, account, 'hld_back', 100n)
  await seed.release(ORG, account, 'hld_back')
  await seed.settle(ORG, account, 'hld_hook')
  await seed.reverse(ORG, account, 300n, 'dep_hook')
  await seed.credit(ORG, account, 900n, 'drw_hook', 'USD', true)

  await receiver.waitFor((r) => r.filter((x) => x.path === '/balance').length >= 4, 10_000, 'four balance deliveries')
  await new Promise((resolve) => setTimeout(resolve, 300))
  const payloads = receiver.forPath('/balance').map((r) => verifyDelivery(ep.secret, r) as Record<string, unknown>)
  t.equal(payloads.length, 4, 'one delivery per credit, payout and reversal; none for the holds and the release')
  // Deliveries may arrive in any order: compared in transaction id order.
  const byType = (type: string) =>
    payloads
      .filter((p) => p.type === type)
      .map((p) => p.data as Record<string, unknown>)
      .sort((a, b) => String(a.transactionId).localeCompare(String(b.transactionId)))

  const storedId = (await h.runtime.store.readStream(`account-${account}`)).find((e) => e.type === 'FundsCredited')!.id
  t.ok(credited.position)
  t.match(
    payloads.find((p) => (p.data as { reference?: string }).reference === 'dep_hook' && p.type === 'balance.credited'),
    {
      id: `evt_${storedId}`,
      apiVersion: '1.0',
      organizationId: ORG,
      type: 'balance.credited',
    },
  )
  t.same(
    byType('balance.credited').map(({ createdAt: _at, ...rest }) => rest),
    [
      {
        accountId: account,
        amount: usd('5000'),
        transactionId: 'credit:dep_hook',
        description: 'Deposit dep_hook',
        type: 'DEPOSIT',
        reference: 'dep_hook',
      },
      {
        accountId: account,
        amount: usd('900'),
        transactionId: 'credit:drw_hook',
        description: 'Credit line draw drw_hook',
        type: 'DRAW',
        reference: 'drw_hook',
      },
    ],
  )
  t.same(
    byType('balance.debited').map(({ createdAt: _at, ...rest }) => rest),
    [
      {
        accountId: account,
        amount: usd('-300'),
        transactionId: 'reversal:dep_hook',
        description: 'Deposit dep_hook reversed',
        type: 'REVERSAL',
        reference: 'dep_hook',
      },
      {
        accountId: account,
        amount: usd('-1200'),
        transactionId: 'settle:hld_hook',
        description: 'Payout hld_hook paid out',
        type: 'PAYOUT',
        holdId: 'hld_hook',
      },
    ],
  )
  for (const p of payloads) t.match((p.data as { createdAt: string }).createdAt, /^\d{4}-\d\d-\d\dT/)

  const listed = await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${account}&eventTypes=balance.debited` })
  t.equal(listed.statusCode, 200, listed.body)
  t.equal(listed.json().data.length, 2, 'the messages are tagged with the account')
})
