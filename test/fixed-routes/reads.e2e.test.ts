// The fixed route read API through HTTP against real Postgres, on routes created through HTTP: a
// customer's list (paging with limit, offset and total, newest first, its bounds), one route (what
// the create answered), the expanded sweep target, tenant and X-On-Behalf-Of scoping, later changes
// shown (disable, enable, metadata, close), the deposit coordinates shown in full yet sealed at
// rest (also after `data seal-existing` and once the customer is erased), and the OpenAPI document.
import t from 'tap'
import { sql } from 'kysely'
import type { FixedRouteResource } from '../../domain/fixed-route/resource.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import { fixedRoutesProjector } from '../../projections/fixedRoutes.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { sealExistingReadModels } from '../../projections/sealExisting.js'
import { sealedFixedRouteResource } from '../../projections/sealedColumns.js'
import { createIndividual } from '../customers/fixtures.js'
import type { Client } from '../harness/httpClient.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, stablecoinBalance, usBankAccount, usdBalance } from '../transfers/transferWorld.js'
import { fixedRoute } from './fixedRouteWorld.js'

type Page = { data: FixedRouteResource[]; total: number; limit: number; offset: number }

const h = await startTestApp(t)
const ann = await approvedCustomer(h)
const ben = await approvedCustomer(h)
const cat = (await createIndividual(h, { firstName: 'Cat' })).id

const annUsd = await usdBalance(h, ann)
const annUsdc = await stablecoinBalance(h, ann, 'USDC', 'SOLANA')
const treasury = await stablecoinBalance(h, null, 'USDC', 'SOLANA')
const benBank = await usBankAccount(h, ben)

const create = async (customerId: string, body: Record<string, unknown>) =>
  (await fixedRoute(h, customerId, body)) as unknown as FixedRouteResource

// Ann's three routes, oldest first; Ben's one.
const annUsdRoute = await create(ann, { sourceCurrency: 'USD', sweepTargetAccountId: annUsdc, minimumAmount: '1000' })
const annEurRoute = await create(ann, { sourceCurrency: 'EUR', sweepTargetAccountId: treasury })
const annWalletRoute = await create(ann, { sourceCurrency: 'USDC', chain: 'ETHEREUM', sweepTargetAccountId: annUsd })
const benRoute = await create(ben, { sourceCurrency: 'USD', sourceRails: ['WIRE'], sweepTargetAccountId: benBank })
const ANN_NEWEST_FIRST = [annWalletRoute.id, annEurRoute.id, annUsdRoute.id]
const USD_ACCOUNT_NUMBER = annUsdRoute.sourceAccount.depositInstructions!.accountNumber!
const EUR_IBAN = annEurRoute.sourceAccount.depositInstructions!.iban!
const BENEFICIARY = annUsdRoute.sourceAccount.depositInstructions!.beneficiaryName

const other = await h.newOrganization('Other organization')
const asOther: Client = { request: (options) => h.request({ ...options, apiKey: other.apiKey }) }
const otherCustomer = await approvedCustomer(asOther)
const otherTarget = await usdBalance(asOther, otherCustomer)
const otherRoute = (await fixedRoute(asOther, otherCustomer, { sourceCurrency: 'USD', sweepTargetAccountId: otherTarget })).id

const as = (customerId: string) => ({ 'x-on-behalf-of': customerId })
const get = (url: string, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'GET', url, headers, ...(apiKey ? { apiKey } : {}) })
async function page(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await get(url, headers)
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}
async function route(id: string, headers: Record<string, string> = {}): Promise<FixedRouteResource> {
  const res = await get(`/v1/fixed-routes/${id}`, headers)
  if (res.statusCode !== 200) throw new Error(`GET route ${id}: ${res.statusCode} ${res.body}`)
  return res.json()
}
/** A write that answers 200 with the resource. */
async function write(method: 'POST' | 'PATCH', url: string, payload?: object): Promise<FixedRouteResource> {
  const res = await h.request({ method, url, ...(payload ? { payload } : {}) })
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}
const ids = (p: Page) => p.data.map((r) => r.id)
const list = (customerId: string, query = '') => `/v1/customers/${customerId}/fixed-routes${query}`
const rawRow = async (id: string) =>
  (await sql<{ text: string }>`SELECT fixed_routes::text AS text FROM fixed_routes WHERE id = ${id}`.execute(h.runtime.db)).rows[0]!.text

t.test('GET answers what the create answered: every field, the sweep target expanded the same way', async (t) => {
  for (const created of [annUsdRoute, annEurRoute, annWalletRoute, benRoute]) t.same(await route(created.id), created, created.id)
})

t.test("a customer's list: every route of it, newest first, with total, limit (default 50) and offset", async (t) => {
  const p = await page(list(ann))
  t.same(ids(p), ANN_NEWEST_FIRST)
  t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: 3, limit: 50, offset: 0 })
  t.same(p.data, [annWalletRoute, annEurRoute, annUsdRoute], 'each item is the route as created')
  t.same(ids(await page(list(ben))), [benRoute.id], "another customer's list holds only its own")
  const empty = await page(list(cat))
  t.same({ data: empty.data, total: empty.total }, { data: [], total: 0 }, 'a customer without routes: an empty list')
})

t.test('paging: limit and offset walk the list; total counts every route of the customer', async (t) => {
  const first = await page(list(ann, '?limit=2'))
  t.same(ids(first), ANN_NEWEST_FIRST.slice(0, 2))
  t.same({ total: first.total, limit: first.limit, offset: first.offset }, { total: 3, limit: 2, offset: 0 })
  const second = await page(list(ann, '?limit=2&offset=2'))
  t.same(ids(second), ANN_NEWEST_FIRST.slice(2))
  t.same({ total: second.total, limit: second.limit, offset: second.offset }, { total: 3, limit: 2, offset: 2 })
  t.same(ids(await page(list(ann, '?limit=1&offset=1'))), [annEurRoute.id])
  const past = await page(list(ann, '?offset=3'))
  t.same({ data: past.data, total: past.total, offset: past.offset }, { data: [], total: 3, offset: 3 }, 'past the end: empty page')
  t.same(ids(await page(list(ann, '?limit=100'))), ANN_NEWEST_FIRST, 'limit 100 is the most')
})

t.test('paging bounds: a limit outside 1-100 or an offset outside 0-100000 is a 400 naming the parameter', async (t) => {
  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=100001', 'offset=x']) {
    const res = await get(list(ann, `?${query}`))
    t.equal(res.statusCode, 400, query)
    t.match(res.json(), { statusCode: 400, code: String, requestId: String }, `${query}: the one error body`)
    t.match(res.body, query.split('=')[0]!, `${query}: names the parameter`)
  }
  t.equal((await get(list(ann, '?offset=100000'))).statusCode, 200, 'offset 100000 is the most')
})

t.test('one route: 404 for what is not a visible route', async (t) => {
  for (const [id, why] of [
    [annUsd, 'an account that is not a route'],
    [annUsdc, 'an internal wallet (inw_, as a crypto route) that is not a route'],
    [benBank, 'an external bank account'],
    ['vba_00000000000000000000000000', 'an unknown id'],
    [otherRoute, "another organization's route"],
  ] as const) {
    const res = await get(`/v1/fixed-routes/${id}`)
    t.equal(res.statusCode, 404, why)
    t.match(res.json(), { statusCode: 404, code: String, requestId: String }, `${why}: the one error body`)
  }
})

t.test('the deposit instructions in full: account and routing number, IBAN, wallet address', async (t) => {
  const usd = await route(annUsdRoute.id)
  t.match(usd, {
    customerId: ann,
    status: 'ACTIVE',
    enabled: true,
    depositMatching: 'DEDICATED',
    minimumAmount: { currency: 'USD', value: '1000' },
    sourceAccount: { type: 'VIRTUAL_BANK', sourceRail: 'ACH', sourceRails: ['ACH', 'WIRE'] },
  })
  t.match(usd.sourceAccount.depositInstructions, { accountNumber: /^\d{12}$/, routingNumber: /^\d{9}$/, iban: null })
  t.match((await route(annEurRoute.id)).sourceAccount, {
    sourceRail: 'SEPA',
    depositInstructions: { iban: /^DE\d\d/, accountNumber: null },
  })
  t.match((await route(annWalletRoute.id)).sourceAccount, {
    type: 'VIRTUAL_WALLET',
    depositInstructions: null,
    walletAddress: /^0x[0-9a-fA-F]{40}$/,
    chains: ['ETHEREUM'],
  })
})

t.test('the sweep target expanded from the accounts read model: a wallet, a treasury wallet, a masked bank account', async (t) => {
  t.match((await route(annUsdRoute.id)).sweepTargetAccount, {
    id: annUsdc,
    type: 'INFINITE_WALLET',
    walletAddress: String,
    accountNumber: null,
  })
  t.match((await route(annWalletRoute.id)).sweepTargetAccount, { id: annUsd, type: 'INFINITE_BANK', walletAddress: null })
  t.match((await route(benRoute.id)).sweepTargetAccount, {
    id: benBank,
    type: 'EXTERNAL_BANK',
    accountNumber: '****6789',
    routingNumber: '021000021',
    bankName: 'Chase',
  })
  t.match(
    (await route(annEurRoute.id, as(ann))).sweepTargetAccount,
    { id: treasury, type: 'INFINITE_WALLET' },
    "the organization's treasury wallet, even for the customer (X-On-Behalf-Of)",
  )
  t.same(
    (await page(list(ann))).data.map((r) => r.sweepTargetAccount?.id),
    [annUsd, treasury, annUsdc],
    'every item of a page has its target',
  )
})

t.test('the virtual accounts of a target list the routes sweeping to it (the accounts read model agrees)', async (t) => {
  const res = await get(`/v1/accounts/${annUsdc}/virtual-accounts`)
  t.equal(res.statusCode, 200, res.body)
  t.same(
    (res.json() as { data: { id: string; sweepTargetAccountId: string }[] }).data.map((a) => [a.id, a.sweepTargetAccountId]),
    [[annUsdRoute.id, annUsdc]],
  )
})

t.test("X-On-Behalf-Of: the customer's own routes only; any other customer's list or route is 404", async (t) => {
  t.same(ids(await page(list(ann), as(ann))), ANN_NEWEST_FIRST)
  t.same((await route(annUsdRoute.id, as(ann))).id, annUsdRoute.id)
  t.equal((await get(list(ann), as(ben))).statusCode, 404, "another customer's list")
  t.equal((await get(`/v1/fixed-routes/${annUsdRoute.id}`, as(ben))).statusCode, 404, "another customer's route")
  t.same(ids(await page(list(ben), as(ben))), [benRoute.id])
})

t.test("tenancy: another organization's customer, an unknown customer and another organization's key are 404", async (t) => {
  t.equal((await get(list(otherCustomer))).statusCode, 404, "another organization's customer")
  t.equal((await get(list('cus_00000000000000000000000000'))).statusCode, 404, 'an unknown customer')
  t.equal((await get(list(ann), {}, other.apiKey)).statusCode, 404, "Ann's list with another organization's key")
  t.equal((await get(`/v1/fixed-routes/${annUsdRoute.id}`, {}, other.apiKey)).statusCode, 404, "Ann's route with another key")
  const own = await get(list(otherCustomer), {}, other.apiKey)
  t.equal(own.statusCode, 200, 'the other organization reads its own customer’s list')
  t.same(ids(own.json()), [otherRoute], 'and sees only its own route')
})

t.test('later changes show, as the write answered them: disabled, enabled again, metadata, closed', async (t) => {
  const disabled = await write('POST', `/v1/fixed-routes/${benRoute.id}/disable`)
  t.match(disabled, { status: 'DISABLED', enabled: false })
  t.ok(disabled.updatedAt > benRoute.updatedAt, 'updatedAt moves')
  t.same(await route(benRoute.id), disabled, 'GET shows what disable answered')
  t.same((await page(list(ben))).data, [disabled], 'the list shows it disabled too')
  const enabled = await write('POST', `/v1/fixed-routes/${benRoute.id}/enable`)
  t.same(await route(benRoute.id), enabled, 'GET shows what enable answered')
  t.match(enabled, { status: 'ACTIVE', enabled: true })

  await write('PATCH', `/v1/accounts/${benRoute.id}`, { metadata: { nickname: 'payroll' } })
  t.match(await route(benRoute.id), { metadata: { nickname: 'payroll' }, sourceAccount: { metadata: { nickname: 'payroll' } } })

  await write('POST', `/v1/accounts/${benRoute.id}/close`)
  t.match(await route(benRoute.id), { status: 'CLOSED', enabled: false })
  t.same(ids(await page(list(ben))), [benRoute.id], 'a closed route is still listed')
})

t.test('sealed at rest: the rows hold no full account number, IBAN or beneficiary; reads show them', async (t) => {
  const { rows } = await sql<{ id: string }>`SELECT id FROM fixed_routes`.execute(h.runtime.db)
  t.same(rows.map((r) => r.id).sort(), [...ANN_NEWEST_FIRST, benRoute.id, otherRoute].sort(), 'a row per route, none for other accounts')
  for (const created of [annUsdRoute, annEurRoute, benRoute]) {
    const di = created.sourceAccount.depositInstructions!
    const text = await rawRow(created.id)
    for (const secret of [di.accountNumber, di.iban, di.beneficiaryName].filter((s): s is string => s !== null))
      t.notOk(text.includes(secret), `${created.id}: the raw row does not hold ${secret.slice(0, 4)}…`)
  }
  t.equal((await route(annUsdRoute.id)).sourceAccount.depositInstructions?.beneficiaryName, BENEFICIARY, 'opened for reads')
  t.equal((await route(annUsdRoute.id)).sourceAccount.depositInstructions?.accountNumber, USD_ACCOUNT_NUMBER, 'opened for reads')
  t.equal((await route(annEurRoute.id)).sourceAccount.depositInstructions?.iban, EUR_IBAN, 'opened for reads')
})

t.test('data seal-existing seals a route row stored in clear; reads answer the same before and after', async (t) => {
  const shown = await route(annUsdRoute.id)
  const row = await h.runtime.db
    .selectFrom('fixed_routes')
    .select(['resource', 'customer_id'])
    .where('id', '=', annUsdRoute.id)
    .executeTakeFirstOrThrow()
  const clear = await sealedFixedRouteResource.open(h.runtime.protection, annUsdRoute.id, row.resource, row.customer_id)
  await sql`UPDATE fixed_routes SET resource = ${JSON.stringify(clear)}::jsonb WHERE id = ${annUsdRoute.id}`.execute(h.runtime.db)
  t.ok((await rawRow(annUsdRoute.id)).includes(USD_ACCOUNT_NUMBER), 'in clear, as a row from before sealing would be')
  t.same(await route(annUsdRoute.id), shown, 'a clear row reads as it is')
  const counts = await sealExistingReadModels(h.runtime.db, h.runtime.protection)
  t.match(counts['fixed_routes.resource'], { sealed: 1 })
  t.notOk((await rawRow(annUsdRoute.id)).includes(USD_ACCOUNT_NUMBER), 'sealed')
  t.same(await route(annUsdRoute.id), shown, 'and reads the same')
})

t.test("erasure: once the customer's key is shredded the coordinates read as erased, rebuilt or patched", async (t) => {
  const dan = await approvedCustomer(h)
  const danRoute = await create(dan, { sourceCurrency: 'USD', sweepTargetAccountId: await usdBalance(h, dan) })
  t.ok(await h.runtime.protection.keys.shred(dan, 'test'))
  const routing = danRoute.sourceAccount.depositInstructions!.routingNumber
  const erased = { accountNumber: ERASED, beneficiaryName: ERASED, routingNumber: routing }
  t.match((await route(danRoute.id)).sourceAccount.depositInstructions, erased, 'the live row opens as erased')
  await rebuildProjection(h.runtime.store, h.runtime.db, fixedRoutesProjector, h.runtime)
  t.match((await route(danRoute.id)).sourceAccount.depositInstructions, erased, 'a rebuild stores the marker')
  t.match((await route(annUsdRoute.id)).sourceAccount.depositInstructions, { accountNumber: USD_ACCOUNT_NUMBER }, 'others unchanged')
  await write('POST', `/v1/fixed-routes/${danRoute.id}/disable`)
  t.match(await route(danRoute.id), { status: 'DISABLED', sourceAccount: { depositInstructions: erased } }, 'a later event still projects')
})

t.test('OpenAPI: both operations tagged Fixed routes, their errors and parameters documented', async (t) => {
  type Operation = {
    tags?: string[]
    summary?: string
    description?: string
    responses: Record<string, unknown>
    parameters?: { name: string; in: string; description?: string; schema?: { description?: string } }[]
  }
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  const paths = doc.paths as Record<string, Record<string, Operation>>
  for (const path of ['/v1/customers/{customerId}/fixed-routes', '/v1/fixed-routes/{id}']) {
    const op = paths[path]?.get
    if (!op) {
      t.fail(`${path} documented`)
      continue
    }
    t.same(op.tags, ['Fixed routes'], `${path}: tagged`)
    t.ok(op.summary && op.description, `${path}: summary and description`)
    for (const s of ['200', '400', '401', '404', '429', '500']) t.ok(op.responses[s], `${path}: documents ${s}`)
    const undescribed = (op.parameters ?? []).filter((p) => !(p.description ?? p.schema?.description)).map((p) => p.name)
    t.same(undescribed, [], `${path}: every parameter described`)
  }
})
