// Concurrent deposit simulations (issue 14, point 5): 50 at once with one reference give one sweep and
// one credit; 50 with distinct references give 50 sweeps and 50 credits; the ledger verifies clean.
import t from 'tap'
import { runCli } from '../cli/fixtures/runCli.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, availableOf, usdBalance } from '../transfers/transferWorld.js'
import { fixedRoute, simulate } from './fixedRouteWorld.js'

const CONCURRENT = 50

t.test('50 simulations with one reference: one sweep; 50 with distinct references: 50 sweeps; ledger verify clean', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })

  const same = await Promise.all(
    Array.from({ length: CONCURRENT }, () => simulate(h, route.id, { amount: '10.00', reference: 'same-ref' })),
  )
  t.same([...new Set(same.map((r) => r.statusCode))], [200], 'every one answers 200')
  t.equal(new Set(same.map((r) => r.json().transferId)).size, 1, 'one sweep')
  const byReference = (await h.request({ method: 'GET', url: '/v1/transfers?clientReferenceId=same-ref' })).json()
  t.equal(byReference.data.length, 1, 'one sweep transfer')
  t.equal(await availableOf(h, usd), '1000', 'credited once')

  const distinct = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) => simulate(h, route.id, { amount: '1.00', reference: `ref-${i}` })),
  )
  t.same([...new Set(distinct.map((r) => r.statusCode))], [200])
  t.equal(new Set(distinct.map((r) => r.json().transferId)).size, CONCURRENT, '50 sweeps')
  t.same([...new Set(distinct.map((r) => r.json().status))], ['COMPLETED'])
  t.equal(await availableOf(h, usd), String(1000 + CONCURRENT * 100), 'each credited once')

  const last = (await h.runtime.store.readStream(`account-${usd}`)).at(-1)?.position
  await h.runtime.runner.waitFor(last, 10_000)
  const verify = await runCli(['ledger', 'verify', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(verify.code, 0, verify.stderr)
  t.match(JSON.parse(verify.stdout), { consistent: true })
})
