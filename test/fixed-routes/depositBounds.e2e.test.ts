// Issue 24, D5: a fixed-route deposit above the amount bound of its currency (domain/shared/money/
// bounds.ts) is refused where the request is read, and leaves no trace: no deposit on the route, no
// sweep transfer, no credit, and no consumer failing on what it would have recorded.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, availableOf, eventually, usdBalance } from '../transfers/transferWorld.js'
import { fixedRoute, simulate, swept } from './fixedRouteWorld.js'

const h = await startTestApp(t)

/** The largest USD amount one request may carry: 10^12 major units. */
const LARGEST_USD = '1000000000000.00'

t.test('D5: a 29-digit deposit is refused with 422 naming the maximum, and nothing is recorded', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sourceRails: ['ACH', 'WIRE'], sweepTargetAccountId: usd })
  const streamBefore = await h.runtime.store.readStream(`account-${route.id}`)

  const res = await simulate(h, route.id, { amount: '99999999999999999999999999999', reference: 'huge-1' })
  t.equal(res.statusCode, 422, `refused as a validation error (${res.body.slice(0, 300)})`)
  t.equal(res.json().code, 'amount_too_large')
  t.match(res.json().details, [{ field: 'amount', message: /1000000000000\.00 USD/ }], 'the field and the maximum')

  const streamAfter = await h.runtime.store.readStream(`account-${route.id}`)
  t.equal(streamAfter.length, streamBefore.length, 'no deposit recorded on the route')
  const sweeps = (await h.request({ method: 'GET', url: '/v1/transfers?clientReferenceId=huge-1' })).json()
  t.same(sweeps.data, [], 'no sweep transfer')
  t.equal(await availableOf(h, usd), '0', 'nothing credited')
  const health = await h.request({ method: 'GET', url: '/health', apiKey: null })
  t.match(health.json(), { status: 'ok' }, 'every consumer healthy (workflows included)')
})

t.test('the largest allowed deposit is swept; one minor unit more is refused', async (t) => {
  const bob = await approvedCustomer(h)
  const usd = await usdBalance(h, bob)
  const route = await fixedRoute(h, bob, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  const over = await simulate(h, route.id, { amount: '1000000000000.01', reference: 'over-1' })
  t.equal(over.statusCode, 422)
  t.equal(over.json().code, 'amount_too_large')
  const sweep = await swept(h, route.id, { amount: LARGEST_USD, reference: 'max-1' })
  t.equal(sweep.status, 'COMPLETED')
  t.equal(await availableOf(h, usd), '100000000000000', 'credited in full')
  await eventually(
    async () => (await h.request({ method: 'GET', url: '/health', apiKey: null })).json(),
    (health) => health.status === 'ok',
    'consumers healthy after the largest deposit',
  )
})
