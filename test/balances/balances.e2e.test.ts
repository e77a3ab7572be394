// Balances through HTTP against real Postgres: an account's balance per currency as money objects,
// its history newest first with the opaque cursor, its open holds, a customer's treasury; scoping
// by organization and X-On-Behalf-Of (404), accounts without a balance (422), page bounds (400)
// and bad cursors (422 invalid_cursor).
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { balanceSeeder, newCustomer } from './fixtures.js'

const h = await startTestApp(t)
const seed = balanceSeeder(h)
const ORG = h.org.organizationId
const usd = (value: string) => ({ currency: 'USD', exponent: 2, value, displayValue: (Number(value) / 100).toFixed(2) })

const get = (url: string, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'GET', url, headers, ...(apiKey ? { apiKey } : {}) })

const customer = await newCustomer(h)
const account = await seed.open(ORG, customer)
await seed.credit(ORG, account, 10_000n, 'dep_1')
await seed.hold(ORG, account, 'hld_a', 3_000n)
await seed.hold(ORG, account, 'hld_b', 1_000n)
await seed.settle(ORG, account, 'hld_b')
await seed.hold(ORG, account, 'hld_c', 500n)
await seed.release(ORG, account, 'hld_c')
await seed.reverse(ORG, account, 200n, 'dep_1')
await seed.credit(ORG, account, 700n, 'drw_1', 'USD', true)

t.test('the balance: available, committed and total per currency as money objects, asOf', async (t) => {
  const res = await get(`/v1/accounts/${account}/balance`)
  t.equal(res.statusCode, 200, res.body)
  const body = res.json()
  t.same(body, {
    accountId: account,
    balances: [{ currency: 'USD', available: usd('6500'), committed: usd('3000'), total: usd('9500') }],
    asOf: body.asOf,
  })
  const last = (await get(`/v1/accounts/${account}/balance/transactions?limit=1`)).json().data[0]
  t.equal(body.asOf, last.createdAt, 'asOf is the time of the last movement')
  t.same((await get(`/v1/accounts/${account}/balance`)).json(), body, 'the same answer until the next movement')

  const fresh = await seed.open(ORG, customer, ['USDC', 'USDT'])
  const stable = (await get(`/v1/accounts/${fresh}/balance`)).json()
  t.same(
    stable.balances.map((b: { currency: string; available: { value: string; exponent: number } }) => [
      b.currency,
      b.available.value,
      b.available.exponent,
    ]),
    [
      ['USDC', '0', 6],
      ['USDT', '0', 6],
    ],
    'a fresh stablecoin account: zero in each of its currencies, in their exponents',
  )
})

t.test('404 for unknown and foreign accounts; 422 account_holds_no_balance for an account without a balance', async (t) => {
  const unknown = await get('/v1/accounts/acc_01h00000000000000000000000/balance')
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'resource_not_found')
  const other = await h.newOrganization('Other')
  t.equal((await get(`/v1/accounts/${account}/balance`, {}, other.apiKey)).statusCode, 404, "another organization's account")
  for (const path of ['balance', 'balance/transactions', 'holds'])
    t.equal((await get(`/v1/accounts/${account}/${path}`, {}, other.apiKey)).statusCode, 404, `${path}: another organization's`)

  const external = await seed.openExternal(ORG, customer)
  const res = await get(`/v1/accounts/${external}/balance`)
  t.equal(res.statusCode, 422)
  t.match(res.json(), { code: 'account_holds_no_balance', statusCode: 422, requestId: /.+/ })
  t.equal((await get(`/v1/accounts/${external}/balance/transactions`)).json().code, 'account_holds_no_balance')
})

t.test("X-On-Behalf-Of: the customer sees its own accounts; another customer's and the organization's are 404", async (t) => {
  const other = await newCustomer(h)
  const treasury = await seed.open(ORG, null, ['USDC'])
  t.equal((await get(`/v1/accounts/${account}/balance`, { 'x-on-behalf-of': customer })).statusCode, 200)
  t.equal((await get(`/v1/accounts/${account}/balance`, { 'x-on-behalf-of': other })).statusCode, 404)
  t.equal((await get(`/v1/accounts/${account}/balance/transactions`, { 'x-on-behalf-of': other })).statusCode, 404)
  t.equal((await get(`/v1/accounts/${account}/holds`, { 'x-on-behalf-of': other })).statusCode, 404)
  t.equal((await get(`/v1/accounts/${treasury}/balance`, { 'x-on-behalf-of': customer })).statusCode, 404)
  t.equal((await get(`/v1/accounts/${treasury}/balance`)).statusCode, 200, 'the organization reads its own treasury wallet')
  t.equal((await get(`/v1/customers/${customer}/treasury`, { 'x-on-behalf-of': other })).statusCode, 404)
})

t.test('the history: newest first, signed amounts, the balance after each entry, its cause', async (t) => {
  const res = await get(`/v1/accounts/${account}/balance/transactions`)
  t.equal(res.statusCode, 200, res.body)
  const page = res.json()
  t.match(page, { has_more: false, limit: 50, url: `/v1/accounts/${account}/balance/transactions`, next_cursor: null, page_next: null })
  t.same(
    page.data.map((e: { type: string; amount: { value: string } }) => [e.type, e.amount.value]),
    [
      ['DRAW', '700'],
      ['REVERSAL', '-200'],
      ['RELEASE', '500'],
      ['HOLD', '-500'],
      ['PAYOUT', '-1000'],
      ['HOLD', '-1000'],
      ['HOLD', '-3000'],
      ['DEPOSIT', '10000'],
    ],
  )
  t.match(page.data[4], {
    id: /^btx_/,
    accountId: account,
    type: 'PAYOUT',
    amount: usd('-1000'),
    availableChange: usd('0'),
    committedChange: usd('-1000'),
    balanceAfter: { available: usd('6000'), committed: usd('3000') },
    cause: { type: 'HOLD', id: 'hld_b' },
    transactionId: 'settle:hld_b',
    description: 'Payout hld_b paid out',
    createdAt: /^\d{4}-\d\d-\d\dT/,
  })
  t.match(page.data[7], { type: 'DEPOSIT', cause: { type: 'DEPOSIT', id: 'dep_1' }, balanceAfter: { available: usd('10000') } })
  t.match(page.data[0], { type: 'DRAW', cause: { type: 'DRAW', id: 'drw_1' }, balanceAfter: { available: usd('6500') } })
})

t.test('paging: limit and the opaque cursor walk the whole history once, in order', async (t) => {
  const all = (await get(`/v1/accounts/${account}/balance/transactions`)).json().data.map((e: { id: string }) => e.id)
  const seen: string[] = []
  let url: string | null = `/v1/accounts/${account}/balance/transactions?limit=3`
  let pages = 0
  while (url) {
    const page: { limit: number; has_more: boolean; next_cursor: string | null; page_next: string | null; data: { id: string }[] } = (
      await get(url)
    ).json()
    t.equal(page.limit, 3)
    seen.push(...page.data.map((e) => e.id))
    t.equal(page.has_more, page.next_cursor !== null)
    if (page.next_cursor) t.equal(page.page_next, `/v1/accounts/${account}/balance/transactions?limit=3&cursor=${page.next_cursor}`)
    url = page.page_next
    pages++
  }
  t.same(seen, all)
  t.equal(pages, 3)
})

t.test('page bounds: limit 1..100 (400 outside); a tampered or foreign cursor is 422 invalid_cursor', async (t) => {
  for (const limit of ['0', '101', 'x', '1.5']) {
    const res = await get(`/v1/accounts/${account}/balance/transactions?limit=${limit}`)
    t.equal(res.statusCode, 400, `limit=${limit}`)
  }
  t.equal((await get(`/v1/accounts/${account}/balance/transactions?limit=100`)).statusCode, 200)
  const first = (await get(`/v1/accounts/${account}/balance/transactions?limit=1`)).json()
  const cursor: string = first.next_cursor
  const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString())
  const other = await seed.open(ORG, customer)
  await seed.credit(ORG, other, 1n, 'dep_other')
  const forged = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url')
  const bad = {
    garbage: 'not-a-cursor',
    'unknown position': forged({ ...decoded, p: '999999' }),
    'another account': forged({ ...decoded, l: `balance_transactions:${other}` }),
    'another list': forged({ ...decoded, l: `holds:${account}` }),
  }
  for (const [label, value] of Object.entries(bad)) {
    const res = await get(`/v1/accounts/${account}/balance/transactions?cursor=${encodeURIComponent(value)}`)
    t.equal(res.statusCode, 422, label)
    t.match(res.json(), { code: 'invalid_cursor', details: [{ field: 'query.cursor' }] }, label)
  }
  const otherPage = await get(`/v1/accounts/${other}/balance/transactions?cursor=${cursor}`)
  t.equal(otherPage.json().code, 'invalid_cursor', "one account's cursor on another's history")
})

t.test('open holds: newest first, paged; their sum is the committed balance', async (t) => {
  const holder = await seed.open(ORG, customer)
  await seed.credit(ORG, holder, 1_000n, 'dep_h')
  for (const [id, amount] of [
    ['hld_1', 100n],
    ['hld_2', 200n],
    ['hld_3', 300n],
  ] as const)
    await seed.hold(ORG, holder, id, amount)
  await seed.release(ORG, holder, 'hld_2')
  const page = (await get(`/v1/accounts/${holder}/holds?limit=1`)).json()
  t.match(page, {
    has_more: true,
    limit: 1,
    data: [{ id: 'hld_3', accountId: holder, status: 'HELD', amount: usd('300'), updatedAt: /T/ }],
  })
  const rest = (await get(page.page_next)).json()
  t.match(rest, { has_more: false, next_cursor: null, data: [{ id: 'hld_1', amount: usd('100') }] })
  t.equal(rest.data.length, 1)
  const balance = (await get(`/v1/accounts/${holder}/balance`)).json()
  t.same(balance.balances[0].committed, usd('400'))
  t.equal((await get(`/v1/accounts/${holder}/holds?cursor=${page.next_cursor.slice(0, -2)}x`)).statusCode, 422)
})

t.test("the treasury: the customer's open balance accounts with their balances, and totals per currency", async (t) => {
  const owner = await newCustomer(h)
  const empty = (await get(`/v1/customers/${owner}/treasury`)).json()
  t.same(empty, { customerId: owner, accounts: [], hasMoreAccounts: false, totals: [], asOf: null })

  const a = await seed.open(ORG, owner)
  const b = await seed.open(ORG, owner, ['USD', 'USDC'])
  await seed.credit(ORG, a, 1_000n, 'dep_a')
  await seed.credit(ORG, b, 2_500n, 'dep_b')
  await seed.hold(ORG, b, 'hld_t', 500n)
  await seed.open(ORG, await newCustomer(h))
  const res = await get(`/v1/customers/${owner}/treasury`, { 'x-on-behalf-of': owner })
  t.equal(res.statusCode, 200, res.body)
  const treasury = res.json()
  t.same(
    treasury.accounts.map((x: { accountId: string }) => x.accountId),
    [a, b].sort(),
  )
  t.match(
    treasury.accounts.find((x: { accountId: string }) => x.accountId === b),
    {
      type: 'INFINITE_BANK',
      balances: [
        { currency: 'USD', available: usd('2000'), committed: usd('500'), total: usd('2500') },
        { currency: 'USDC', total: { value: '0' } },
      ],
    },
  )
  t.same(treasury.totals[0], { currency: 'USD', available: usd('3000'), committed: usd('500'), total: usd('3500') })
  t.equal(treasury.totals[1].currency, 'USDC')
  const lastHold = (await get(`/v1/accounts/${b}/balance/transactions?limit=1`)).json().data[0]
  t.equal(treasury.asOf, lastHold.createdAt, 'asOf: the latest movement on its accounts')
  t.equal((await get('/v1/customers/cus_01h00000000000000000000000/treasury')).statusCode, 404)
  const other = await h.newOrganization('Treasury other')
  t.equal((await get(`/v1/customers/${owner}/treasury`, {}, other.apiKey)).statusCode, 404)
})

t.test('through the API: a fund-in and holds show at once in the balance, the history and the holds list', async (t) => {
  const created = await h.request({ method: 'POST', url: '/v1/balance-accounts', payload: { customerId: customer } })
  t.equal(created.statusCode, 201, created.body)
  const id: string = created.json().id
  const funded = await h.request({
    method: 'POST',
    url: `/v1/sandbox/accounts/${id}/fund-in`,
    payload: { amount: '12.34', reference: 'wire-42' },
  })
  t.ok(funded.statusCode < 300, funded.body)
  const hold = await h.request({ method: 'POST', url: `/v1/accounts/${id}/holds`, payload: { currency: 'USD', amount: '234' } })
  t.equal(hold.statusCode, 201, hold.body)
  // Read-your-writes: each write answered after the balances reached it.
  t.same((await get(`/v1/accounts/${id}/balance`)).json().balances, [
    { currency: 'USD', available: usd('1000'), committed: usd('234'), total: usd('1234') },
  ])
  const history = (await get(`/v1/accounts/${id}/balance/transactions`)).json().data
  t.match(history, [
    { type: 'HOLD', amount: usd('-234'), cause: { type: 'HOLD', id: hold.json().id } },
    { type: 'DEPOSIT', amount: usd('1234'), cause: { type: 'FUND_IN', id: 'wire-42' }, balanceAfter: { available: usd('1234') } },
  ])
  const holds = (await get(`/v1/accounts/${id}/holds`)).json().data
  t.same(
    holds.map((x: { id: string; status: string }) => [x.id, x.status]),
    [[hold.json().id, 'HELD']],
  )
  t.same(holds[0].amount, hold.json().amount, 'the list shows the hold as its POST answered')
  const released = await h.request({ method: 'POST', url: `/v1/accounts/${id}/holds/${hold.json().id}/release` })
  t.equal(released.statusCode, 200, released.body)
  t.same((await get(`/v1/accounts/${id}/holds`)).json().data, [])
  t.same((await get(`/v1/accounts/${id}/balance`)).json().balances[0].committed, usd('0'))
})
