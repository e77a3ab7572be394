// The fixed route read API through HTTP against real Postgres: a customer's list (paging with
// limit, offset and total, newest first, its bounds), one route, the expanded sweep target,
// tenant and X-On-Behalf-Of scoping, later changes shown (disable, metadata, close), the deposit
// coordinates shown in full yet sealed at rest, and the OpenAPI document of both operations.
import t from 'tap'
import { sql } from 'kysely'
import type { FixedRouteResource } from '../../domain/fixed-route/resource.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import { fixedRoutesProjector } from '../../projections/fixedRoutes.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { sealExistingReadModels } from '../../projections/sealExisting.js'
import { sealedFixedRouteResource } from '../../projections/sealedColumns.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'
import { openAccount } from '../accounts/openAccounts.js'
import { BENEFICIARY, BENEFICIARY_ADDRESS, EUR_IBAN, USD_ACCOUNT_NUMBER, WALLET_ADDRESS } from './readsFixtures.js'
import { openRoute, setRouteEnabled } from './readsSetup.js'

type Page = { data: FixedRouteResource[]; total: number; limit: number; offset: number }

const h = await startTestApp(t)
const org = h.org.organizationId
const ann = (await createIndividual(h, { firstName: 'Ann' })).id
const ben = (await createIndividual(h, { firstName: 'Ben' })).id
const cat = (await createIndividual(h, { firstName: 'Cat' })).id

const annUsd = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: ann })
const annUsdc = await openAccount(h, org, { kind: 'STABLECOIN_BALANCE', customerId: ann })
const treasury = await openAccount(h, org, { kind: 'STABLECOIN_BALANCE', customerId: null, currencyCodes: ['USDT'] })
const benBank = await openAccount(h, org, { kind: 'EXTERNAL_BANK', customerId: ben })

// Ann's three routes, oldest first; Ben's one.
const annUsdRoute = await openRoute(h, org, 'USD_BANK', ann, annUsdc)
const annEurRoute = await openRoute(h, org, 'EUR_BANK', ann, treasury)
const annWalletRoute = await openRoute(h, org, 'WALLET', ann, annUsd)
const benRoute = await openRoute(h, org, 'USD_BANK', ben, benBank)
const ANN_NEWEST_FIRST = [annWalletRoute, annEurRoute, annUsdRoute]

const other = await h.newOrganization('Other organization')
const otherCustomer = (await createIndividual(h, {}, { apiKey: other.apiKey })).id
const otherTarget = await openAccount(h, other.organizationId, { kind: 'USD_BALANCE', customerId: otherCustomer })
const otherRoute = await openRoute(h, other.organizationId, 'WALLET', otherCustomer, otherTarget)

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
const ids = (p: Page) => p.data.map((r) => r.id)
const list = (customerId: string, query = '') => `/v1/customers/${customerId}/fixed-routes${query}`

t.test("a customer's list: every route of it, newest first, with total, limit (default 50) and offset", async (t) => {
  const p = await page(list(ann))
  t.same(ids(p), ANN_NEWEST_FIRST)
  t.same({ total: p.total, limit: p.limit, offset: p.offset }, { total: 3, limit: 50, offset: 0 })
  t.same(ids(await page(list(ben))), [benRoute], "another customer's list holds only its own")
  const empty = await page(list(cat))
  t.same({ data: empty.data, total: empty.total }, { data: [], total: 0 }, 'a customer without routes: an empty list')
  t.ok(
    p.data.every((r) => r.customerId === ann && r.status === 'ACTIVE' && r.enabled),
    'each route is the customer’s, ACTIVE and enabled',
  )
})

t.test('paging: limit and offset walk the list; total counts every route of the customer', async (t) => {
  const first = await page(list(ann, '?limit=2'))
  t.same(ids(first), ANN_NEWEST_FIRST.slice(0, 2))
  t.same({ total: first.total, limit: first.limit, offset: first.offset }, { total: 3, limit: 2, offset: 0 })
  const second = await page(list(ann, '?limit=2&offset=2'))
  t.same(ids(second), ANN_NEWEST_FIRST.slice(2))
  t.same({ total: second.total, limit: second.limit, offset: second.offset }, { total: 3, limit: 2, offset: 2 })
  const middle = await page(list(ann, '?limit=1&offset=1'))
  t.same(ids(middle), [annEurRoute])
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

t.test('one route: the same resource the list shows; 404 for what is not a visible route', async (t) => {
  const listed = (await page(list(ann))).data
  for (const item of listed) t.same(await route(item.id), item, `${item.id}: GET shows what the list shows`)
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

t.test("the deposit instructions in full: a USD route's account and routing number, a EUR route's IBAN, a wallet's address", async (t) => {
  const usd = await route(annUsdRoute)
  t.match(usd, {
    id: annUsdRoute,
    customerId: ann,
    type: 'FIAT_TO_CRYPTO',
    status: 'ACTIVE',
    enabled: true,
    sharesBalanceAccountCoordinates: false,
    depositMatching: 'DEDICATED',
    sweepTargetAccountId: annUsdc,
    destinationCurrency: 'USDC',
    developerFeeFixed: '100',
    developerFeePercent: 0.01,
    minimumAmount: { currency: 'USD', value: '1000' },
    sourceAccount: {
      id: annUsdRoute,
      type: 'VIRTUAL_BANK',
      sourceCurrency: 'USD',
      sourceRail: 'ACH',
      sourceRails: ['ACH', 'WIRE'],
      depositInstructions: {
        accountNumber: USD_ACCOUNT_NUMBER,
        routingNumber: '101019644',
        iban: null,
        reference: null,
        beneficiaryName: BENEFICIARY,
        beneficiaryAddress: BENEFICIARY_ADDRESS,
      },
    },
  })
  t.match(await route(annEurRoute), { sourceAccount: { sourceRail: 'SEPA', depositInstructions: { iban: EUR_IBAN, accountNumber: null } } })
  t.match(await route(annWalletRoute), {
    type: 'CRYPTO_TO_FIAT',
    sourceAccount: { type: 'VIRTUAL_WALLET', depositInstructions: null, walletAddress: WALLET_ADDRESS, chains: ['ETHEREUM'] },
  })
})

t.test('the sweep target expanded from the accounts read model: a wallet, a treasury wallet, a masked bank account', async (t) => {
  t.match((await route(annUsdRoute)).sweepTargetAccount, {
    id: annUsdc,
    type: 'INFINITE_WALLET',
    isThirdParty: false,
    walletAddress: String,
    addressType: 'SOLANA',
    chains: ['SOLANA'],
    accountNumber: null,
  })
  t.match((await route(annWalletRoute)).sweepTargetAccount, { id: annUsd, type: 'INFINITE_BANK', walletAddress: null })
  const bank = (await route(benRoute)).sweepTargetAccount
  t.match(bank, { id: benBank, type: 'EXTERNAL_BANK', accountNumber: '****6789', routingNumber: '021000021', bankName: 'Test Bank' })
  const treasuryTarget = (await route(annEurRoute, as(ann))).sweepTargetAccount
  t.match(treasuryTarget, { id: treasury, type: 'INFINITE_WALLET' }, "the organization's treasury wallet, even for the customer")
  const listed = await page(list(ann))
  t.same(
    listed.data.map((r) => r.sweepTargetAccount?.id),
    [annUsd, treasury, annUsdc],
    'every item of a page has its target (one lookup for the page)',
  )
})

t.test('the virtual accounts of a target list the routes sweeping to it (the accounts read model agrees)', async (t) => {
  const res = await get(`/v1/accounts/${annUsdc}/virtual-accounts`)
  t.equal(res.statusCode, 200, res.body)
  t.same(
    (res.json() as { data: { id: string; sweepTargetAccountId: string }[] }).data.map((a) => [a.id, a.sweepTargetAccountId]),
    [[annUsdRoute, annUsdc]],
  )
})

t.test("X-On-Behalf-Of: the customer's own routes only; any other customer's list or route is 404", async (t) => {
  t.same(ids(await page(list(ann), as(ann))), ANN_NEWEST_FIRST)
  t.same((await route(annUsdRoute, as(ann))).id, annUsdRoute)
  t.equal((await get(list(ann), as(ben))).statusCode, 404, "another customer's list")
  t.equal((await get(`/v1/fixed-routes/${annUsdRoute}`, as(ben))).statusCode, 404, "another customer's route")
  t.same(ids(await page(list(ben), as(ben))), [benRoute])
})

t.test("tenancy: another organization's customer, an unknown customer and another organization's key are 404", async (t) => {
  t.equal((await get(list(otherCustomer))).statusCode, 404, "another organization's customer")
  t.equal((await get(list('cus_00000000000000000000000000'))).statusCode, 404, 'an unknown customer')
  t.equal((await get(list(ann), {}, other.apiKey)).statusCode, 404, "Ann's list with another organization's key")
  t.equal((await get(`/v1/fixed-routes/${annUsdRoute}`, {}, other.apiKey)).statusCode, 404, "Ann's route with another key")
  const own = await get(list(otherCustomer), {}, other.apiKey)
  t.equal(own.statusCode, 200, 'the other organization reads its own customer’s list')
  t.same(ids(own.json()), [otherRoute], 'and sees only its own route')
})

t.test('later changes show: disabled and enabled again, metadata, closed', async (t) => {
  const before = await route(benRoute)
  await setRouteEnabled(h, org, benRoute, false)
  const disabled = await route(benRoute)
  t.match(disabled, { status: 'DISABLED', enabled: false })
  t.ok(disabled.updatedAt > before.updatedAt, 'updatedAt moves')
  t.same((await page(list(ben))).data[0], disabled, 'the list shows it disabled too')
  await setRouteEnabled(h, org, benRoute, true)
  t.match(await route(benRoute), { status: 'ACTIVE', enabled: true })

  const patched = await h.request({ method: 'PATCH', url: `/v1/accounts/${benRoute}`, payload: { metadata: { nickname: 'payroll' } } })
  t.equal(patched.statusCode, 200, patched.body)
  t.match(await route(benRoute), { metadata: { nickname: 'payroll' }, sourceAccount: { metadata: { nickname: 'payroll' } } })

  const closed = await h.request({ method: 'POST', url: `/v1/accounts/${benRoute}/close` })
  t.equal(closed.statusCode, 200, closed.body)
  t.match(await route(benRoute), { status: 'CLOSED', enabled: false })
  t.same(ids(await page(list(ben))), [benRoute], 'a closed route is still listed')
})

t.test('sealed at rest: the rows hold no full account number, IBAN or beneficiary; reads show them', async (t) => {
  const { rows } = await sql<{ id: string; text: string }>`SELECT id, fixed_routes::text AS text FROM fixed_routes`.execute(h.runtime.db)
  t.equal(rows.length, 5, 'a row per route, none for other accounts')
  for (const { id, text } of rows)
    for (const secret of [USD_ACCOUNT_NUMBER, EUR_IBAN, BENEFICIARY, BENEFICIARY_ADDRESS])
      t.notOk(text.includes(secret), `${id}: the raw row does not hold ${secret.slice(0, 4)}…`)
  t.equal((await route(annUsdRoute)).sourceAccount.depositInstructions?.accountNumber, USD_ACCOUNT_NUMBER, 'opened for reads')
})

const rawRow = async (id: string) =>
  (await sql<{ text: string }>`SELECT fixed_routes::text AS text FROM fixed_routes WHERE id = ${id}`.execute(h.runtime.db)).rows[0]!.text

t.test('data seal-existing seals a route row stored in clear; reads answer the same before and after', async (t) => {
  const shown = await route(annUsdRoute)
  const row = await h.runtime.db
    .selectFrom('fixed_routes')
    .select(['resource', 'customer_id'])
    .where('id', '=', annUsdRoute)
    .executeTakeFirstOrThrow()
  const clear = await sealedFixedRouteResource.open(h.runtime.protection, annUsdRoute, row.resource, row.customer_id)
  await sql`UPDATE fixed_routes SET resource = ${JSON.stringify(clear)}::jsonb WHERE id = ${annUsdRoute}`.execute(h.runtime.db)
  t.ok((await rawRow(annUsdRoute)).includes(USD_ACCOUNT_NUMBER), 'in clear, as a row from before sealing would be')
  t.same(await route(annUsdRoute), shown, 'a clear row reads as it is')
  const counts = await sealExistingReadModels(h.runtime.db, h.runtime.protection)
  t.match(counts['fixed_routes.resource'], { sealed: 1 })
  t.notOk((await rawRow(annUsdRoute)).includes(USD_ACCOUNT_NUMBER), 'sealed')
  t.same(await route(annUsdRoute), shown, 'and reads the same')
})

t.test("erasure: once the customer's key is shredded the coordinates read as erased, rebuilt or patched", async (t) => {
  const dan = (await createIndividual(h, { firstName: 'Dan' })).id
  const danUsd = await openAccount(h, org, { kind: 'USD_BALANCE', customerId: dan })
  const danRoute = await openRoute(h, org, 'USD_BANK', dan, danUsd)
  t.ok(await h.runtime.protection.keys.shred(dan, 'test'))
  const erased = { accountNumber: ERASED, beneficiaryName: ERASED, beneficiaryAddress: ERASED, routingNumber: '101019644' }
  t.match((await route(danRoute)).sourceAccount.depositInstructions, erased, 'the live row opens as erased')
  await rebuildProjection(h.runtime.store, h.runtime.db, fixedRoutesProjector, h.runtime)
  t.match((await route(danRoute)).sourceAccount.depositInstructions, erased, 'a rebuild stores the marker')
  t.match(await route(annUsdRoute), { sourceAccount: { depositInstructions: { accountNumber: USD_ACCOUNT_NUMBER } } }, 'others unchanged')
  await setRouteEnabled(h, org, danRoute, false)
  t.match(await route(danRoute), { status: 'DISABLED', sourceAccount: { depositInstructions: erased } }, 'a later event still projects')
})

t.test('OpenAPI: both operations tagged Fixed routes, their errors and query parameters documented', async (t) => {
  type Operation = {
    tags?: string[]
    summary?: string
    description?: string
    responses: Record<string, unknown>
    parameters?: { name: string; in: string; description?: string; schema?: { description?: string } }[]
  }
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  const paths = doc.paths as Record<string, Record<string, Operation>>
  for (const [path, statuses] of [
    ['/v1/customers/{customerId}/fixed-routes', ['200', '400', '401', '404', '429', '500']],
    ['/v1/fixed-routes/{id}', ['200', '400', '401', '404', '429', '500']],
  ] as const) {
    const op = paths[path]?.get
    if (!op) {
      t.fail(`${path} documented`)
      continue
    }
    t.same(op.tags, ['Fixed routes'], `${path}: tagged`)
    t.ok(op.summary && op.description, `${path}: summary and description`)
    for (const s of statuses) t.ok(op.responses[s], `${path}: documents ${s}`)
    const undescribed = (op.parameters ?? []).filter((p) => !(p.description ?? p.schema?.description)).map((p) => p.name)
    t.same(undescribed, [], `${path}: every parameter described`)
  }
})
