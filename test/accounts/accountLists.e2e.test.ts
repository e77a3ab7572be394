// The account read API through HTTP against real Postgres: GET /v1/accounts (every filter, every
// bound, both pagings, expand), GET /v1/accounts/{id}, the customer's list, the virtual accounts of
// an account, tenant isolation and X-On-Behalf-Of scoping.
import t from 'tap'
import type { AccountResource } from '../../domain/account/resource.js'
import { expandAccounts } from '../../read-api/accounts/expand.js'
import { ACCOUNT_EXPANSIONS } from '../../read-api/accounts/limits.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { insertVirtualAccount, openAccount } from './openAccounts.js'

type Account = { id: string; customerId: string | null; [key: string]: unknown }
type Page = { data: Account[]; total: number; limit: number; offset: number }

const h = await startTestApp(t)
const org = h.org.organizationId
const ann = (await createIndividual(h, { firstName: 'Ann' })).id
const ben = (await createIndividual(h, { firstName: 'Ben' })).id

const annUsd = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: ann })
const annUsdc = await openAccount(h, org, { kind: 'STABLECOIN_BALANCE', customerId: ann, balanceSourceEligible: false })
const annBank = await openAccount(h, org, { kind: 'EXTERNAL_BANK', customerId: ann })
const benWallet = await openAccount(h, org, {
  kind: 'EXTERNAL_WALLET',
  customerId: ben,
  status: 'IN_REVIEW',
  currencyCodes: ['USDT', 'USDC'],
  counterpartyId: 'cp_0000000000benswallet0000',
})
const treasury = await openAccount(h, org, { kind: 'STABLECOIN_BALANCE', customerId: null, currencyCodes: ['USDT'], provider: 'CUSTODIAN' })
const benEur = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: ben, currencyCodes: ['EUR', 'USD'], paymentRails: ['SEPA'] })
const annVba = await insertVirtualAccount(h, org, { customerId: ann, sweepTargetAccountId: annUsd })
const annVwa = await insertVirtualAccount(h, org, { customerId: ann, sweepTargetAccountId: annUsd, wallet: true })
const treasuryVwa = await insertVirtualAccount(h, org, { customerId: null, sweepTargetAccountId: treasury, wallet: true })
const ALL = [annUsd, annUsdc, annBank, benWallet, treasury, benEur, annVba, annVwa, treasuryVwa]
/** The list's order: id descending. */
const ordered = (ids: string[]) => [...ids].sort().reverse()

const other = await h.newOrganization('Other organization')
const otherCustomer = (await createIndividual(h, {}, { apiKey: other.apiKey })).id
const otherAccount = await openAccount(h, other.organizationId, { kind: 'USD_BALANCE', customerId: otherCustomer })

const get = (url: string, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'GET', url, headers, ...(apiKey ? { apiKey } : {}) })
async function page(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await get(url, headers)
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}
const ids = (p: Page) => p.data.map((a) => a.id)
const as = (customerId: string) => ({ 'x-on-behalf-of': customerId })

t.test('the default list: every account of the organization, newest first within a prefix, with total, limit and offset', async (t) => {
  const p = await page('/v1/accounts')
  t.same(ids(p), ordered(ALL))
  t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: ALL.length, limit: 500, offset: 0 })
  t.notOk(ids(p).includes(otherAccount), "another organization's account is never listed")
  const bank = p.data.find((a) => a.id === annBank)!
  t.equal(bank.accountNumber, '****6789', 'bank numbers masked in lists')
  t.notOk('customer' in bank, 'nothing expanded unless asked')
})

t.test('every filter', async (t) => {
  const cases: [string, string[]][] = [
    ['id=eba_', [annBank]],
    ['id=inw', [annUsdc, treasury]],
    [`id=${annUsd}`, [annUsd]],
    ['id=a_c', []], // `_` is literal, not LIKE's any-character
    ['id=%25', []], // `%` is literal too
    ['id=acc%5C', []], // and so is a backslash
    [`customerId=${ann}`, [annUsd, annUsdc, annBank, annVba, annVwa]],
    ['holdsBalance=true', [annUsd, annUsdc, treasury, benEur]],
    ['holdsBalance=false', [annBank, benWallet, annVba, annVwa, treasuryVwa]],
    ['balanceSourceEligible=true', [annUsd, treasury, benEur]],
    ['balanceSourceEligible=false', [annUsdc, annBank, benWallet, annVba, annVwa, treasuryVwa]],
    ['counterpartyId=cp_0000000000benswallet0000', [benWallet]],
    ['type=INFINITE_WALLET', [annUsdc, treasury]],
    ['type=VIRTUAL_BANK', [annVba]],
    ['type=EXTERNAL_PROXY', []],
    ['provider=CUSTODIAN', [treasury]],
    ['provider=custodian', []],
    ['status=IN_REVIEW', [benWallet]],
    ['status=CLOSED', []],
    ['addressType=SOLANA', [annUsdc, treasury]],
    ['addressType=EVM', [benWallet, annVwa, treasuryVwa]],
    ['currencyCodes=EUR', [benEur]],
    ['currencyCodes=USDT', [benWallet, treasury]],
    ['currencyCodes=USDT,EUR', [benWallet, treasury, benEur]],
    ['currencyCodes=USDT&currencyCodes=EUR', [benWallet, treasury, benEur]],
    ['currencyCodes[]=USDT&currencyCodes[]=EUR', [benWallet, treasury, benEur]],
    ['currencyCodes[]=USDT&currencyCodes=EUR', [benWallet, treasury, benEur]],
    ['currencyCodes=BTC', []],
    ['paymentRails=SEPA', [benEur]],
    ['paymentRails=ACH,SEPA', [annUsd, annBank, benEur, annVba]],
    ['paymentRails[]=BALANCE', [annUsd, annUsdc, treasury]],
    ['holdsBalance=true&type=INFINITE_BANK&currencyCodes=EUR', [benEur]],
    [`status=ACTIVE&type=INFINITE_BANK&customerId=${ann}`, [annUsd]],
  ]
  for (const [query, expected] of cases) {
    const p = await page(`/v1/accounts?${query}`)
    t.same(ids(p), ordered(expected), query)
    t.equal(p.total, expected.length, `${query}: total`)
  }
  // An id the organization does not have, another organization's or made up, is a 404 (issue 24, D6), not an empty page.
  for (const query of [`customerId=${otherCustomer}`, 'counterpartyId=cp_unknown'])
    t.equal((await get(`/v1/accounts?${query}`)).statusCode, 404, query)
})

t.test('values outside the enums, booleans other than true/false: 400 naming the parameter', async (t) => {
  const cases: [string, string][] = [
    ['type=FOO', 'query.type'],
    ['type=infinite_bank', 'query.type'],
    ['status=OPEN', 'query.status'],
    ['addressType=ETH', 'query.addressType'],
    ['currencyCodes=ABC', 'query.currencyCodes'],
    ['currencyCodes=USD,ABC', 'query.currencyCodes'],
    ['currencyCodes=', 'query.currencyCodes'],
    ['paymentRails=NOPE', 'query.paymentRails'],
    ['expand=owner', 'query.expand'],
    ['expand[]=customer&expand[]=owner', 'query.expand'],
    ['holdsBalance=yes', 'query.holdsBalance'],
    ['holdsBalance=1', 'query.holdsBalance'],
    ['holdsBalance=TRUE', 'query.holdsBalance'],
    ['balanceSourceEligible=', 'query.balanceSourceEligible'],
    ['id=', 'query.id'],
    [`id=${'a'.repeat(65)}`, 'query.id'],
    [`provider=${'p'.repeat(41)}`, 'query.provider'],
    [`currencyCodes=${'USD,'.repeat(600)}`, 'query.currencyCodes'],
  ]
  for (const [query, field] of cases) {
    const res = await get(`/v1/accounts?${query}`)
    t.equal(res.statusCode, 400, query)
    const fields = (res.json().details ?? []).map((d: { field: string }) => d.field) as string[]
    t.ok(
      fields.some((f) => f.startsWith(field)),
      `${query}: details name ${field} (${fields.join(', ')})`,
    )
  }
})

t.test('page size and offset bounds: 0, 1, 1000, 1001, negative, non-numeric', async (t) => {
  for (const param of ['limit', 'page_size']) {
    for (const [value, status] of [
      ['0', 400],
      ['1', 200],
      ['1000', 200],
      ['1001', 400],
      ['-1', 400],
      ['abc', 400],
      ['1.5', 400],
    ] as const) {
      const res = await get(`/v1/accounts?${param}=${value}`)
      t.equal(res.statusCode, status, `${param}=${value}`)
      if (status === 200) t.equal(res.json().limit, Number(value), `${param}=${value}: limit answered`)
      if (status === 200) t.equal(res.json().data.length, Math.min(Number(value), ALL.length))
    }
  }
  for (const [value, status] of [
    ['0', 200],
    ['1', 200],
    ['100000', 200],
    ['100001', 400],
    ['-1', 400],
    ['abc', 400],
  ] as const) {
    t.equal((await get(`/v1/accounts?offset=${value}`)).statusCode, status, `offset=${value}`)
  }
  const far = await page('/v1/accounts?offset=1000')
  t.same({ data: far.data, total: far.total, offset: far.offset }, { data: [], total: ALL.length, offset: 1000 }, 'past the end: empty')
  for (const query of ['limit=2&page_size=2', 'offset=1&starting_after=' + annUsd, 'limit=5&starting_after=' + annUsd]) {
    t.equal((await get(`/v1/accounts?${query}`)).statusCode, 400, `${query}: one paging mode per request`)
  }
})

t.test('offset paging walks the whole list', async (t) => {
  const seen: string[] = []
  for (let offset = 0; offset < ALL.length; offset += 2) {
    const p = await page(`/v1/accounts?limit=2&offset=${offset}`)
    t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: ALL.length, limit: 2, offset })
    seen.push(...ids(p))
  }
  t.same(seen, ordered(ALL))
})

t.test('cursor paging walks the whole list; offset answers the items before the page', async (t) => {
  const seen: string[] = []
  let cursor: string | undefined
  do {
    const p = await page(`/v1/accounts?page_size=4${cursor ? `&starting_after=${cursor}` : ''}`)
    t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: ALL.length, limit: 4, offset: seen.length })
    seen.push(...ids(p))
    cursor = p.data.length > 0 && p.offset + p.data.length < p.total ? p.data.at(-1)!.id : undefined
  } while (cursor)
  t.same(seen, ordered(ALL))
  const filtered = await page(
    `/v1/accounts?holdsBalance=true&page_size=1&starting_after=${ordered([annUsd, annUsdc, treasury, benEur])[0]}`,
  )
  t.same({ offset: filtered.offset, total: filtered.total, n: filtered.data.length }, { offset: 1, total: 4, n: 1 }, 'with a filter')
  for (const cursor of ['acc_unknown', otherAccount, annBank]) {
    const res = await get(`/v1/accounts?holdsBalance=true&starting_after=${cursor}`)
    t.equal(res.statusCode, 422, `${cursor}: not an item of the list`)
    t.equal(res.json().code, 'invalid_cursor')
  }
})

t.test('expand: customer, sweepTargetAccount, counterparty; one query per kind per page', async (t) => {
  const annRead = (await get(`/v1/customers/${ann}`)).json()
  const p = await page('/v1/accounts?expand=customer,sweepTargetAccount&expand=counterparty')
  const byId = new Map(p.data.map((a) => [a.id, a]))
  t.same(byId.get(annUsd)!.customer, annRead, 'the customer as GET /v1/customers/{id} shows it')
  t.equal(byId.get(treasury)!.customer, null, "the organization's own account has no customer")
  t.equal((byId.get(annVba)!.sweepTargetAccount as Account).id, annUsd)
  t.same(byId.get(annVba)!.sweepTargetAccount, (await get(`/v1/accounts/${annUsd}`)).json(), 'the target as GET shows it')
  t.equal(byId.get(annUsd)!.sweepTargetAccount, null, 'no sweep target: null')
  t.equal(byId.get(benWallet)!.counterparty, null, 'a counterparty id that names no counterparty: null')
  t.equal(byId.get(annUsd)!.counterparty, null, 'no counterparty: null')
  const brackets = await page('/v1/accounts?expand[]=customer&type=INFINITE_WALLET')
  t.same(
    brackets.data.map((a) => a.customer && (a.customer as { id: string }).id),
    ordered([annUsdc, treasury]).map((id) => (id === treasury ? null : ann)),
    'expand[] spelling',
  )
  t.notOk('sweepTargetAccount' in brackets.data[0]!, 'only what was asked')

  // The lookups of a whole page: one query per kind, whatever the page's size.
  let queries = 0
  const counted = h.runtime.db.withPlugin({
    transformQuery: (args) => {
      queries++
      return args.node
    },
    transformResult: async (args) => args.result,
  })
  const accounts = (await page('/v1/accounts')).data as unknown as AccountResource[]
  const scope = { organizationId: org, customerId: undefined }
  const expanded = await expandAccounts({ db: counted, protection: h.runtime.protection }, scope, accounts, [...ACCOUNT_EXPANSIONS])
  t.equal(expanded.length, ALL.length)
  t.ok(queries <= ACCOUNT_EXPANSIONS.length, `${queries} queries for ${ALL.length} accounts and ${ACCOUNT_EXPANSIONS.length} kinds`)
  queries = 0
  await expandAccounts(
    { db: counted, protection: h.runtime.protection },
    scope,
    accounts.filter((a) => a.id === annUsd),
    ['customer'],
  )
  t.equal(queries, 1, 'one kind: one query')
  queries = 0
  await expandAccounts(
    { db: counted, protection: h.runtime.protection },
    scope,
    accounts.filter((a) => a.id === treasury),
    ['customer'],
  )
  t.equal(queries, 0, 'nothing to look up: no query')
})

t.test('GET /v1/accounts/{id}: every prefix, expand, 404 outside the scope', async (t) => {
  for (const id of ALL) {
    const res = await get(`/v1/accounts/${id}`)
    t.equal(res.statusCode, 200, id)
    t.equal(res.json().id, id)
  }
  const expanded = (await get(`/v1/accounts/${annVba}?expand=customer&expand=sweepTargetAccount`)).json()
  t.equal(expanded.customer.id, ann)
  t.equal(expanded.sweepTargetAccount.id, annUsd)
  t.equal((await get(`/v1/accounts/${annVba}?expand=nope`)).statusCode, 400)
  const missing = await get(`/v1/accounts/${otherAccount}`)
  t.equal(missing.statusCode, 404, "another organization's account")
  t.equal(missing.json().code, 'resource_not_found')
  t.equal((await get(`/v1/accounts/acc_00000000000000000000000000`)).statusCode, 404, 'unknown')
  t.equal((await get(`/v1/accounts/${annUsd}`, {}, other.apiKey)).statusCode, 404, "from the other organization's key")
  t.equal((await get(`/v1/accounts/${otherAccount}`, {}, other.apiKey)).statusCode, 200, 'its own account')
  t.equal((await get(`/v1/accounts/${annUsd}`, as(ann))).statusCode, 200, 'On-Behalf-Of its customer')
  t.equal((await get(`/v1/accounts/${annUsd}`, as(ben))).statusCode, 404, 'On-Behalf-Of another customer')
  t.equal((await get(`/v1/accounts/${treasury}`, as(ben))).statusCode, 404, "the organization's own account, On-Behalf-Of a customer")
  const scoped = (await get(`/v1/accounts/${treasuryVwa}?expand=sweepTargetAccount`)).json()
  t.equal(scoped.sweepTargetAccount.id, treasury)
})

t.test('X-On-Behalf-Of narrows the list to that customer', async (t) => {
  t.same(ids(await page('/v1/accounts', as(ben))), ordered([benWallet, benEur]))
  t.same(ids(await page(`/v1/accounts?customerId=${ann}`, as(ben))), [], 'another customer filtered for: nothing')
  const expanded = await page('/v1/accounts?expand=customer', as(ben))
  t.same(
    expanded.data.map((a) => (a.customer as { id: string }).id),
    [ben, ben],
  )
})

t.test("a customer's accounts: GET /v1/customers/{customerId}/accounts", async (t) => {
  const p = await page(`/v1/customers/${ann}/accounts`)
  t.same(ids(p), ordered([annUsd, annUsdc, annBank, annVba, annVwa]))
  t.equal(p.total, 5)
  t.same(ids(await page(`/v1/customers/${ann}/accounts?holdsBalance=true&currencyCodes=USD`)), [annUsd])
  t.same(ids(await page(`/v1/customers/${ann}/accounts?limit=2&offset=1`)), ordered([annUsd, annUsdc, annBank, annVba, annVwa]).slice(1, 3))
  const expanded = await page(`/v1/customers/${ann}/accounts?expand[]=customer&id=acc_`)
  t.equal((expanded.data[0]!.customer as { id: string }).id, ann)
  t.equal((await get(`/v1/customers/${ann}/accounts?starting_after=${benEur}`)).statusCode, 422, "another customer's account as cursor")
  t.equal((await get(`/v1/customers/cus_00000000000000000000000000/accounts`)).statusCode, 404, 'unknown customer')
  t.equal((await get(`/v1/customers/${otherCustomer}/accounts`)).statusCode, 404, "another organization's customer")
  t.equal((await get(`/v1/customers/${ann}/accounts`, as(ben))).statusCode, 404, 'another customer than On-Behalf-Of')
  t.same(ids(await page(`/v1/customers/${ben}/accounts`, as(ben))), ordered([benWallet, benEur]))
  t.equal((await get(`/v1/customers/${ann}/accounts?type=NOPE`)).statusCode, 400)
  t.equal((await get(`/v1/customers/${ann}/accounts?limit=1001`)).statusCode, 400)
})

t.test('GET /v1/accounts/{id}/virtual-accounts: the virtual accounts sweeping to it', async (t) => {
  const p = await page(`/v1/accounts/${annUsd}/virtual-accounts`)
  t.same(ids(p), ordered([annVba, annVwa]))
  t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: 2, limit: 500, offset: 0 })
  t.same(ids(await page(`/v1/accounts/${treasury}/virtual-accounts`)), [treasuryVwa])
  t.same(ids(await page(`/v1/accounts/${annBank}/virtual-accounts`)), [], 'none: empty')
  const first = await page(`/v1/accounts/${annUsd}/virtual-accounts?page_size=1`)
  const second = await page(`/v1/accounts/${annUsd}/virtual-accounts?page_size=1&starting_after=${first.data[0]!.id}`)
  t.same([...ids(first), ...ids(second)], ordered([annVba, annVwa]))
  t.equal(second.offset, 1)
  t.same(ids(await page(`/v1/accounts/${annUsd}/virtual-accounts?limit=1&offset=1`)), ids(second))
  t.equal((await get(`/v1/accounts/${annUsd}/virtual-accounts?limit=0`)).statusCode, 400)
  t.equal((await get(`/v1/accounts/${annUsd}/virtual-accounts?page_size=1001`)).statusCode, 400)
  t.equal((await get(`/v1/accounts/${annUsd}/virtual-accounts?starting_after=${annBank}`)).statusCode, 422)
  t.equal((await get(`/v1/accounts/${otherAccount}/virtual-accounts`)).statusCode, 404)
  t.equal((await get(`/v1/accounts/${annUsd}/virtual-accounts`, as(ben))).statusCode, 404)
  t.same(ids(await page(`/v1/accounts/${annUsd}/virtual-accounts`, as(ann))), ordered([annVba, annVwa]))
})

t.test("another organization's key sees only its own accounts", async (t) => {
  const res = await get('/v1/accounts', {}, other.apiKey)
  t.same(
    res.json().data.map((a: Account) => a.id),
    [otherAccount],
  )
  t.equal(res.json().total, 1)
  // Another organization's customer in a filter is the 404 of an unknown one (issue 24, D6), not an empty page.
  t.equal((await get(`/v1/accounts?customerId=${ann}`, {}, other.apiKey)).statusCode, 404)
})

t.test('every list route: the same bounds', async (t) => {
  const routes = ['/v1/accounts', `/v1/customers/${ann}/accounts`, `/v1/accounts/${annUsd}/virtual-accounts`]
  const bounds: [string, number][] = [
    ['limit=0', 400],
    ['limit=1', 200],
    ['limit=1000', 200],
    ['limit=1001', 400],
    ['limit=-1', 400],
    ['limit=ten', 400],
    ['page_size=0', 400],
    ['page_size=1', 200],
    ['page_size=1000', 200],
    ['page_size=1001', 400],
    ['page_size=-5', 400],
    ['page_size=x', 400],
    ['offset=0', 200],
    ['offset=-1', 400],
    ['offset=x', 400],
    ['starting_after=' + 'a'.repeat(65), 400],
  ]
  for (const route of routes) {
    for (const [query, status] of bounds) {
      const res = await get(`${route}?${query}`)
      t.equal(res.statusCode, status, `${route}?${query}`)
      if (status === 400) t.equal(res.json().code, 'invalid_request')
    }
  }
})

t.test('an account opened through POST /v1/balance-accounts is listed at once, with its customer', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/balance-accounts',
    payload: { customerId: ben, metadata: { nickname: 'Payroll' } },
  })
  t.equal(res.statusCode, 201, res.body)
  const id = res.json().id as string
  const listed = await page(`/v1/customers/${ben}/accounts?expand=customer`)
  const item = listed.data.find((a) => a.id === id)
  t.ok(item, 'in the customer list')
  t.same({ ...item, customer: undefined }, { ...(await get(`/v1/accounts/${id}`)).json(), customer: undefined }, 'as GET shows it')
  t.equal((item!.customer as { id: string }).id, ben)
  t.equal((await page('/v1/accounts')).total, ALL.length + 1, 'the total counts it')
})

t.test("the unfiltered total is the organization's kept count, whatever the paging; a filtered one is counted", async (t) => {
  const bump = (by: number) =>
    h.runtime.db
      .updateTable('account_counts')
      .set((eb) => ({ accounts: eb('accounts', '+', String(by)) }))
      .where('organization_id', '=', org)
      .execute()
  const counted = (await page('/v1/accounts')).total
  await bump(1000)
  try {
    for (const query of ['', '?limit=2', '?limit=2&offset=3', '?page_size=2', `?page_size=2&starting_after=${ordered(ALL)[1]}`]) {
      t.equal((await page(`/v1/accounts${query}`)).total, counted + 1000, `GET /v1/accounts${query}: the kept count`)
    }
    t.equal((await page('/v1/accounts?holdsBalance=true&limit=2')).total, 5, 'filtered: counted')
    t.equal((await page('/v1/accounts', as(ann))).total, 5, 'On-Behalf-Of: counted')
  } finally {
    await bump(-1000)
  }
})

t.test('expand=counterparty: the counterparty as GET /v1/counterparties/{id} shows it, within the scope', async (t) => {
  const created = await h.request({
    method: 'POST',
    url: '/v1/counterparties',
    payload: {
      customerId: ben,
      name: 'Globex Supplies',
      beneficiaryType: 'BUSINESS',
      address: { addressLine1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    },
  })
  t.equal(created.statusCode, 201, created.body)
  const counterpartyId = created.json().id as string
  const wallet = await openAccount(h, org, { kind: 'EXTERNAL_WALLET', customerId: ben, counterpartyId })
  const read = (await get(`/v1/counterparties/${counterpartyId}`)).json()
  const listed = await page(`/v1/accounts?counterpartyId=${counterpartyId}&expand=counterparty`)
  t.same(ids(listed), [wallet])
  t.same(listed.data[0]!.counterparty, read, 'as GET /v1/counterparties/{id} shows it (address opened)')
  t.same((await get(`/v1/accounts/${wallet}?expand=counterparty`, as(ben))).json().counterparty, read, 'On-Behalf-Of its customer')
  const customerList = await page(`/v1/customers/${ben}/accounts?expand=counterparty&type=EXTERNAL_WALLET`)
  t.same(customerList.data.find((a) => a.id === wallet)!.counterparty, read, "in the customer's list")
})
