// Issue 24, D7: one bound on amounts for every money field of a request (domain/shared/money/
// bounds.ts: 10^12 major units of the field's currency), checked where the request is read (422
// amount_too_large naming the field and the maximum, nothing recorded), and a ceiling on a balance
// (10^15 major units) where credits are decided (422 balance_limit_exceeded, the balance unchanged).
import t, { type Test } from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { configure, readyFacility } from '../liquidity/fixtures.js'
import { fixedRoute } from '../fixed-routes/fixedRouteWorld.js'
import { approvedCustomer, availableOf, balanceOf, createTransfer, fundIn, usBankAccount, usdBalance } from '../transfers/transferWorld.js'
import { balanceSeeder } from './fixtures.js'

const h = await startTestApp(t)
const seed = balanceSeeder(h)

/** 30 digits: what the reproduction sent. */
const HUGE = '999999999999999999999999999999'
/** The USD bound: 10^12 major units, 10^14 minor units. */
const MAX_USD_MINOR = '100000000000000'
const MAX_USD_MAJOR = '1000000000000.00'

const streamLength = async (accountId: string) => (await h.runtime.store.readStream(`account-${accountId}`)).length

type Refusal = { statusCode: number; json(): { code: string; details: { field: string; message: string }[] } }

function refusedAbove(t: Test, res: Refusal, field: string, maximum: RegExp, code = 'amount_too_large') {
  t.equal(res.statusCode, 422, `${field}: 422`)
  t.equal(res.json().code, code, `${field}: ${code}`)
  t.match(res.json().details, [{ field, message: maximum }], `${field}: the detail names the field and the maximum`)
}

t.test('fund-in: a 30-digit amount is refused and recorded nowhere; the largest is credited', async (t) => {
  const account = await usdBalance(h, null)
  const before = await streamLength(account)
  const huge = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account}/fund-in`, payload: { amount: HUGE } })
  refusedAbove(t, huge, 'amount', /1000000000000\.00 USD/)
  const over = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account}/fund-in`, payload: { amount: '1000000000000.01' } })
  refusedAbove(t, over, 'amount', /100000000000000 minor units/)
  t.equal(await streamLength(account), before, 'nothing recorded on the account')
  await fundIn(h, account, MAX_USD_MAJOR)
  t.equal(await availableOf(h, account), MAX_USD_MINOR, 'the largest amount is credited')
})

t.test('holds: a 30-digit hold is refused; the largest is placed', async (t) => {
  const account = await usdBalance(h, null)
  await fundIn(h, account, MAX_USD_MAJOR)
  await fundIn(h, account, MAX_USD_MAJOR)
  const before = await streamLength(account)
  const huge = await h.request({ method: 'POST', url: `/v1/accounts/${account}/holds`, payload: { currency: 'USD', amount: HUGE } })
  refusedAbove(t, huge, 'amount', /1000000000000\.00 USD/)
  const over = await h.request({
    method: 'POST',
    url: `/v1/accounts/${account}/holds`,
    payload: { currency: 'USD', amount: '100000000000001' },
  })
  refusedAbove(t, over, 'amount', /100000000000000 minor units/)
  t.equal(await streamLength(account), before, 'nothing recorded on the account')
  const largest = await h.request({
    method: 'POST',
    url: `/v1/accounts/${account}/holds`,
    payload: { currency: 'USD', amount: MAX_USD_MINOR },
  })
  t.equal(largest.statusCode, 201, 'the largest hold is placed')
})

t.test('transfers: 30-digit amounts and fees are refused and nothing is created; the largest is taken', async (t) => {
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const bank = await usBankAccount(h, alice)
  await fundIn(h, usd, MAX_USD_MAJOR)
  const body = (extra: Record<string, unknown>, reference: string) => ({
    source: { accountId: usd },
    destination: { accountId: bank, paymentRail: 'WIRE' },
    clientReferenceId: reference,
    ...extra,
  })
  refusedAbove(t, await createTransfer(h, body({ sourceAmount: HUGE }, 'huge-source')), 'sourceAmount', /1000000000000\.00 USD/)
  refusedAbove(t, await createTransfer(h, body({ destinationAmount: HUGE }, 'huge-dest')), 'destinationAmount', /1000000000000\.00 USD/)
  refusedAbove(
    t,
    await createTransfer(h, body({ sourceAmount: '1000', developerFeeFixed: HUGE }, 'huge-fee')),
    'developerFeeFixed',
    /1000000000000\.00 USD/,
  )
  const deposit = await createTransfer(h, {
    sourceCustomerId: alice,
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: bank, paymentRail: 'ACH' },
    sourceAmount: '100000000000001',
    clientReferenceId: 'huge-deposit',
  })
  refusedAbove(t, deposit, 'sourceAmount', /100000000000000 minor units/)
  for (const reference of ['huge-source', 'huge-dest', 'huge-fee', 'huge-deposit']) {
    const listed = (await h.request({ method: 'GET', url: `/v1/transfers?clientReferenceId=${reference}` })).json()
    t.same(listed.data, [], `${reference}: no transfer recorded`)
  }
  const largest = await createTransfer(h, body({ sourceAmount: MAX_USD_MINOR, developerFeeFixed: '100' }, 'largest'))
  t.equal(largest.statusCode, 201, `the largest amount is taken (${largest.body.slice(0, 200)})`)
  t.equal(await availableOf(h, usd), '0', 'and held in full')
})

t.test('fixed routes: a 30-digit fee or minimum is refused and no route is opened', async (t) => {
  const bob = await approvedCustomer(h)
  const usd = await usdBalance(h, bob)
  const route = { sourceCurrency: 'USD', sweepTargetAccountId: usd }
  const url = `/v1/customers/${bob}/fixed-routes`
  refusedAbove(
    t,
    await h.request({ method: 'POST', url, payload: { ...route, developerFeeFixed: HUGE } }),
    'developerFeeFixed',
    /1000000000000\.00 USD/,
  )
  refusedAbove(t, await h.request({ method: 'POST', url, payload: { ...route, minimumAmount: HUGE } }), 'minimumAmount', /USD/)
  refusedAbove(
    t,
    await h.request({
      method: 'POST',
      url,
      payload: { sourceCurrency: 'BTC', chain: 'BITCOIN', sweepTargetAccountId: usd, minimumAmount: HUGE },
    }),
    'minimumAmount',
    /1000000000000\.00000000 BTC \(100000000000000000000 minor units\)/,
  )
  t.same((await h.request({ method: 'GET', url })).json().data, [], 'no route opened')
  const largest = await fixedRoute(h, bob, { ...route, minimumAmount: MAX_USD_MINOR, developerFeeFixed: MAX_USD_MINOR })
  t.match(largest.id, /^vba_/, 'the largest minimum and fee are taken')
})

t.test('the credit line: a 30-digit limit, draw or repayment is refused', async (t) => {
  const org = await h.newOrganization('Credit line bounds')
  const limit = await configure(h, { creditLimit: HUGE, maximumDrawAmount: '1', fundingFeeBpsPerHour: 1, feeCapHours: 24 }, org.apiKey)
  refusedAbove(t, limit, 'creditLimit', /1000000000000\.000000 USDC/, 'invalid_credit_line')
  await readyFacility(
    h,
    { creditLimit: '1000000000000000000', maximumDrawAmount: '1000000', fundingFeeBpsPerHour: 1, feeCapHours: 24 },
    org,
  )
  const post = (url: string, amount: string) => h.request({ method: 'POST', url, payload: { amount }, apiKey: org.apiKey })
  refusedAbove(t, await post('/v1/liquidity/facility/draws', HUGE), 'amount', /1000000000000\.000000 USDC/)
  refusedAbove(t, await post('/v1/liquidity/facility/repayments', HUGE), 'amount', /1000000000000\.000000 USDC/)
  const draws = await h.request({ method: 'GET', url: '/v1/liquidity/facility/draws', apiKey: org.apiKey })
  t.same(draws.json().data, [], 'no draw recorded')
})

t.test('the ceiling: a credit that would bring a balance above 10^15 major units is refused, the balance unchanged', async (t) => {
  const account = await usdBalance(h, null)
  const ceilingMinor = 10n ** 17n
  // Credits of the largest request amount, as a thousand fund-ins would make them, one minor unit short of the ceiling.
  await seed.credit(h.org.organizationId, account, ceilingMinor - 1n, 'seed-near-ceiling')
  await fundIn(h, account, '0.01')
  t.equal(await availableOf(h, account), ceilingMinor.toString(), 'a credit up to the ceiling is taken')
  const before = await balanceOf(h, account)
  const length = await streamLength(account)
  const over = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account}/fund-in`, payload: { amount: '0.01' } })
  refusedAbove(t, over, 'amount', /1000000000000000\.00 USD/, 'balance_limit_exceeded')
  t.same(await balanceOf(h, account), before, 'the balance unchanged')
  t.equal(await streamLength(account), length, 'nothing recorded')
  const held = await h.request({ method: 'POST', url: `/v1/accounts/${account}/holds`, payload: { currency: 'USD', amount: '100' } })
  t.equal(held.statusCode, 201, 'funds at the ceiling still move out')
  const again = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account}/fund-in`, payload: { amount: '0.01' } })
  t.equal(again.json().code, 'balance_limit_exceeded', 'committed funds count toward the ceiling')
})
