// Balance accounts through HTTP against real Postgres: open (customer or organization), read back,
// metadata, sandbox fund-in (exact major-unit parsing, idempotent by reference, refused for inw_),
// holds placed, released and settled, closing refused while funds or holds remain, another
// organization and another customer (X-On-Behalf-Of) see nothing.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

const h = await startTestApp(t)
const customer = await createIndividual(h)

async function openUsd(body: Record<string, unknown> = { customerId: customer.id }) {
  const res = await h.request({ method: 'POST', url: '/v1/balance-accounts', payload: body })
  if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`)
  return res.json() as { id: string; [key: string]: unknown }
}
const fundIn = (id: string, payload: Record<string, unknown>) =>
  h.request({ method: 'POST', url: `/v1/sandbox/accounts/${id}/fund-in`, payload })
const hold = (id: string, amount: string, currency = 'USD') =>
  h.request({ method: 'POST', url: `/v1/accounts/${id}/holds`, payload: { currency, amount } })

t.test('a USD balance account opens ACTIVE with every field, and reads back the same', async (t) => {
  const account = await openUsd({ customerId: customer.id, metadata: { nickname: 'Payroll', purpose: 'salaries', tags: ['hr'] } })
  t.match(account, {
    id: /^acc_[0-9a-z]{26}$/,
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    customerId: customer.id,
    currencyCodes: ['USD'],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'SANDBOX_BANK',
    counterpartyId: null,
    metadata: { nickname: 'Payroll', purpose: 'salaries', tags: ['hr'] },
    closedAt: null,
  })
  t.ok((account['paymentRails'] as string[]).includes('BALANCE'))
  const read = await h.request({ method: 'GET', url: `/v1/accounts/${account.id}` })
  t.equal(read.statusCode, 200)
  t.same(read.json(), account, 'the read model answers what the command answered')
  const own = await openUsd({})
  t.match(own, { customerId: null, holdsBalance: true, balanceSourceEligible: false }, "the organization's own account")
})

t.test('opening refuses a bad body, an unknown customer, and bad metadata; nothing is created', async (t) => {
  const unknown = await h.request({
    method: 'POST',
    url: '/v1/balance-accounts',
    payload: { customerId: 'cus_00000000000000000000000000' },
  })
  t.equal(unknown.statusCode, 404)
  const extra = await h.request({ method: 'POST', url: '/v1/balance-accounts', payload: { customerId: customer.id, currency: 'EUR' } })
  t.equal(extra.statusCode, 400)
  const tags = await h.request({
    method: 'POST',
    url: '/v1/balance-accounts',
    payload: { customerId: customer.id, metadata: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) } },
  })
  t.equal(tags.statusCode, 400)
  t.match(tags.json(), { details: [{ field: /metadata/ }] })
})

t.test('fund-in credits exactly, once per reference; inw_ and bad amounts are refused', async (t) => {
  const account = await openUsd()
  const first = await fundIn(account.id, { amount: '125.50', reference: 'dep-1' })
  t.equal(first.statusCode, 200)
  t.match(first.json(), {
    accountId: account.id,
    reference: 'dep-1',
    credited: true,
    amount: { currency: 'USD', exponent: 2, value: '12550', displayValue: '125.50' },
    available: { value: '12550' },
  })
  const replay = await fundIn(account.id, { amount: '125.50', reference: 'dep-1' })
  t.match(replay.json(), { credited: false, available: { value: '12550' } }, 'the same reference credits nothing again')
  const reused = await fundIn(account.id, { amount: '1.00', reference: 'dep-1' })
  t.equal(reused.statusCode, 409)
  t.equal(reused.json().code, 'reference_reused')
  const precise = await fundIn(account.id, { amount: '0.001' })
  t.equal(precise.statusCode, 422, 'more decimals than USD has')
  t.equal(precise.json().code, 'invalid_amount')
  for (const amount of ['-1', '1e3', '0x10', ' 1', '']) t.equal((await fundIn(account.id, { amount })).statusCode, 400, amount)
  t.equal((await fundIn(account.id, { amount: '0' })).statusCode, 422)
  const tooBig = await fundIn(account.id, { amount: '90071992547409.93' })
  t.equal(tooBig.json().code, 'amount_too_large', 'above the bound of one amount (10^12 USD)')
  // No one USD amount passes 2^53 minor units now; a balance does: 91 of the largest amounts, exact, no float.
  const largest = await openUsd()
  const statuses = new Set<number>()
  for (let i = 0; i < 91; i++) statuses.add((await fundIn(largest.id, { amount: '999999999999.99' })).statusCode)
  t.same([...statuses], [200], 'each credited')
  const balance = await h.request({ method: 'GET', url: `/v1/accounts/${largest.id}/balance` })
  t.match(balance.json(), { balances: [{ available: { value: '9099999999999909' } }] }, 'beyond 2^53: exact, no float')
  const wallet = await fundIn('inw_00000000000000000000000000', { amount: '1.00' })
  t.equal(wallet.statusCode, 422)
  t.equal(wallet.json().code, 'fund_in_not_supported')
})

t.test('holds: placed against available, released back, settled out; never below zero', async (t) => {
  const account = await openUsd()
  await fundIn(account.id, { amount: '10.00' })
  const placed = await hold(account.id, '600')
  t.equal(placed.statusCode, 201)
  t.match(placed.json(), { id: /^hld_/, accountId: account.id, status: 'HELD', amount: { value: '600', currency: 'USD' } })
  const tooMuch = await hold(account.id, '401')
  t.equal(tooMuch.statusCode, 422)
  t.match(tooMuch.json(), { code: 'insufficient_funds', details: [{ field: 'amount' }] })
  const released = await h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds/${placed.json().id}/release` })
  t.match(released.json(), { status: 'RELEASED', amount: { value: '600' } })
  const again = await h.request({ method: 'POST', url: `/v1/accounts/${account.id}/holds/${placed.json().id}/release` })
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'hold_closed')
  const all = await hold(account.id, '1000')
  t.equal(all.statusCode, 201, 'released funds are available again')
  const settled = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/holds/${all.json().id}/settle` })
  t.match(settled.json(), { status: 'SETTLED' })
  t.equal((await hold(account.id, '1')).statusCode, 422, 'settled funds left the account')
  t.equal((await hold(account.id, '1', 'EUR')).statusCode, 422, 'a currency the account does not hold')
})

t.test('close: refused with funds or holds, then CLOSED for good', async (t) => {
  const account = await openUsd()
  await fundIn(account.id, { amount: '1.00' })
  const close = () => h.request({ method: 'POST', url: `/v1/accounts/${account.id}/close` })
  t.equal((await close()).json().code, 'account_has_funds')
  const held = (await hold(account.id, '100')).json()
  t.equal((await close()).json().code, 'account_has_pending_holds')
  await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/holds/${held.id}/settle` })
  const closed = await close()
  t.equal(closed.statusCode, 200)
  t.match(closed.json(), { status: 'CLOSED', closedAt: /Z$/ })
  t.equal((await close()).statusCode, 200, 'closing again answers the closed account')
  const funded = await fundIn(account.id, { amount: '1.00' })
  t.equal(funded.statusCode, 409)
  t.equal(funded.json().code, 'account_closed')
  const renamed = await h.request({ method: 'PATCH', url: `/v1/accounts/${account.id}`, payload: { metadata: { nickname: 'x' } } })
  t.equal(renamed.statusCode, 409)
  t.equal((await h.request({ method: 'GET', url: `/v1/accounts/${account.id}` })).json().status, 'CLOSED')
})

t.test('metadata is replaced and read back', async (t) => {
  const account = await openUsd()
  const res = await h.request({
    method: 'PATCH',
    url: `/v1/accounts/${account.id}`,
    payload: { metadata: { nickname: 'Ops', tags: ['a'] } },
  })
  t.equal(res.statusCode, 200)
  t.same(res.json().metadata, { nickname: 'Ops', tags: ['a'] })
  t.same((await h.request({ method: 'GET', url: `/v1/accounts/${account.id}` })).json().metadata, { nickname: 'Ops', tags: ['a'] })
})

t.test('another organization and another customer see no account', async (t) => {
  const account = await openUsd()
  const other = await h.newOrganization('other')
  for (const [method, url] of [
    ['GET', `/v1/accounts/${account.id}`],
    ['POST', `/v1/accounts/${account.id}/close`],
    ['POST', `/v1/sandbox/accounts/${account.id}/fund-in`],
    ['POST', `/v1/accounts/${account.id}/holds`],
  ] as const) {
    const payload = url.endsWith('fund-in') ? { amount: '1.00' } : url.endsWith('holds') ? { currency: 'USD', amount: '1' } : undefined
    const res = await h.request({ method, url, apiKey: other.apiKey, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url}`)
  }
  const someoneElse = await createIndividual(h)
  const scoped = await h.request({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: { 'x-on-behalf-of': someoneElse.id } })
  t.equal(scoped.statusCode, 404)
  const scopedHold = await h.request({
    method: 'POST',
    url: `/v1/accounts/${account.id}/holds`,
    headers: { 'x-on-behalf-of': someoneElse.id },
    payload: { currency: 'USD', amount: '1' },
  })
  t.equal(scopedHold.statusCode, 404)
  const mine = await h.request({ method: 'GET', url: `/v1/accounts/${account.id}`, headers: { 'x-on-behalf-of': customer.id } })
  t.equal(mine.statusCode, 200)
})

t.test('a fund-in returned: taken back whole, once; refused when the money is held', async (t) => {
  const account = await openUsd()
  await fundIn(account.id, { amount: '5.00', reference: 'ret-1' })
  await fundIn(account.id, { amount: '2.00', reference: 'ret-2' })
  const back = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/fund-in/ret-1/return` })
  t.equal(back.statusCode, 200)
  t.match(back.json(), { reference: 'ret-1', amount: { value: '500' }, available: { value: '200' } })
  const twice = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/fund-in/ret-1/return` })
  t.equal(twice.statusCode, 409)
  t.equal(twice.json().code, 'credit_already_returned')
  const unknown = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/fund-in/nope/return` })
  t.equal(unknown.statusCode, 404)
  await hold(account.id, '150')
  const spent = await h.request({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/fund-in/ret-2/return` })
  t.equal(spent.statusCode, 422, 'available never goes below zero')
  t.equal(spent.json().code, 'insufficient_funds')
  const replay = await fundIn(account.id, { amount: '5.00', reference: 'ret-1' })
  t.match(replay.json(), { credited: false }, 'a returned reference does not credit again')
})
