// Creating fixed routes through HTTP: a virtual bank account (vba_) per fiat currency with coordinates
// that pass their check digits, a deposit wallet (inw_) with an address valid on its chain, every
// field of the spec's table, the sweep target expanded; refusals name their fields; disable and enable.
import t from 'tap'
import { validateAbaRoutingNumber, validateBic, validateIban } from '../../domain/shared/bank/index.js'
import { validateWalletAddress } from '../../domain/shared/chain/index.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, stablecoinBalance, usBankAccount, usdBalance } from '../transfers/transferWorld.js'
import { createRoute, fixedRoute } from './fixedRouteWorld.js'

const SPEC_FIELDS = [
  'id',
  'customerId',
  'type',
  'status',
  'enabled',
  'sourceAccount',
  'sweepTargetAccountId',
  'sweepTargetAccount',
  'sharesBalanceAccountCoordinates',
  'depositMatching',
  'destinationCurrency',
  'destinationRail',
  'developerFeeFixed',
  'developerFeePercent',
  'refundAccountId',
  'correspondentBank',
  'allowedSenderBanks',
  'documentIds',
  'minimumAmount',
  'metadata',
  'createdAt',
  'updatedAt',
]

t.test('a USD route on ACH, wire and SWIFT: dedicated account and routing number, BIC and correspondent', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, {
    sourceCurrency: 'USD',
    sourceRails: ['ACH', 'WIRE', 'SWIFT'],
    sweepTargetAccountId: usd,
    developerFeeFixed: '25',
    developerFeePercent: 0.01,
    refundAccountId: usd,
    minimumAmount: '500',
    metadata: { nickname: 'payroll in' },
  })
  for (const field of SPEC_FIELDS) t.ok(field in route, `field ${field}`)
  t.match(route.id, /^vba_/)
  t.match(route, {
    customerId: alice,
    type: 'FIAT_TO_FIAT',
    status: 'ACTIVE',
    enabled: true,
    sweepTargetAccountId: usd,
    sharesBalanceAccountCoordinates: false,
    depositMatching: 'DEDICATED',
    destinationCurrency: 'USD',
    destinationRail: 'BALANCE',
    developerFeeFixed: '25',
    developerFeePercent: 0.01,
    refundAccountId: usd,
    minimumAmount: { currency: 'USD', value: '500', displayValue: '5.00' },
    correspondentBank: { swiftCode: 'CHASUS33XXX' },
  })
  t.match(route.sourceAccount, {
    id: route.id,
    type: 'VIRTUAL_BANK',
    sourceCurrency: 'USD',
    sourceRail: 'ACH',
    sourceRails: ['ACH', 'WIRE', 'SWIFT'],
  })
  const di = route.sourceAccount.depositInstructions!
  t.ok(validateAbaRoutingNumber(di.routingNumber!).ok, 'a routing number with a valid ABA check digit')
  t.match(di.accountNumber, /^\d{12}$/)
  t.ok(validateBic(di.swiftBic!).ok, 'a valid BIC')
  t.match(route.sweepTargetAccount, { id: usd, type: 'INFINITE_BANK', isThirdParty: false })
  const again = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  t.not(again.sourceAccount.depositInstructions!.accountNumber, di.accountNumber, 'each route has its own account number')
  t.same(again.sourceAccount.sourceRails, ['ACH', 'WIRE'], 'USD defaults to ACH and wire')
  const account = (await h.request({ method: 'GET', url: `/v1/accounts/${route.id}` })).json()
  t.match(account, {
    id: route.id,
    type: 'VIRTUAL_BANK',
    sweepTargetAccountId: usd,
    holdsBalance: false,
    accountNumber: `****${di.accountNumber!.slice(-4)}`,
  })
  const virtual = (await h.request({ method: 'GET', url: `/v1/accounts/${usd}/virtual-accounts` })).json()
  t.same(virtual.data.map((a: { id: string }) => a.id).sort(), [route.id, again.id].sort(), 'the target lists the accounts sweeping to it')
})

t.test('a EUR route on SEPA: an IBAN with valid check digits; a crypto route: an address valid on its chain', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const usdc = await stablecoinBalance(h, alice, 'USDC', 'SOLANA')
  const eur = await fixedRoute(h, alice, { sourceCurrency: 'EUR', sweepTargetAccountId: usdc })
  const iban = eur.sourceAccount.depositInstructions!.iban!
  t.ok(validateIban(iban).ok, `${iban} passes the IBAN checks`)
  t.match(eur, { type: 'FIAT_TO_CRYPTO', destinationCurrency: 'USDC', correspondentBank: null, sourceAccount: { sourceRails: ['SEPA'] } })
  for (const [chain, type] of [
    ['ETHEREUM', 'EVM'],
    ['SOLANA', 'SOLANA'],
    ['TRON', 'TRON'],
    ['POLYGON', 'EVM'],
  ] as const) {
    const route = await fixedRoute(h, alice, { sourceCurrency: 'USDT', chain, sweepTargetAccountId: usd })
    t.match(route.id, /^inw_/)
    t.match(route, {
      type: 'CRYPTO_TO_FIAT',
      sourceAccount: { type: 'VIRTUAL_WALLET', addressType: type, chains: [chain], walletType: 'DEPOSIT' },
    })
    t.equal(route.sourceAccount.depositInstructions, null)
    t.ok(validateWalletAddress(type, route.sourceAccount.walletAddress!, 'sandbox', 'walletAddress').ok, `a valid ${chain} address`)
  }
})

t.test('refusals name their fields; nothing is created', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const bob = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const bobUsd = await usdBalance(h, bob)
  const bank = await usBankAccount(h, alice)
  const cases: [Record<string, unknown>, number, string, string][] = [
    [{ sourceCurrency: 'USD', sourceRails: ['SEPA'], sweepTargetAccountId: usd }, 422, 'invalid_fixed_route', 'sourceRails.0'],
    [{ sourceCurrency: 'USDC', sweepTargetAccountId: usd }, 422, 'invalid_fixed_route', 'chain'],
    [{ sourceCurrency: 'USDC', chain: 'BITCOIN', sweepTargetAccountId: usd }, 422, 'invalid_fixed_route', 'sourceCurrency'],
    [{ sourceCurrency: 'USD', sweepTargetAccountId: bobUsd }, 422, 'invalid_fixed_route', 'sweepTargetAccountId'],
    [
      { sourceCurrency: 'USD', sweepTargetAccountId: usd, allowedSenderBanks: [{ routingNumber: '123' }] },
      422,
      'invalid_fixed_route',
      'allowedSenderBanks.0.routingNumber',
    ],
    [{ sourceCurrency: 'USD', sweepTargetAccountId: usd, allowedSenderBanks: [{}] }, 422, 'invalid_fixed_route', 'allowedSenderBanks.0'],
    [
      { sourceCurrency: 'USD', sweepTargetAccountId: usd, correspondentBank: { name: 'X', swiftCode: 'CHASUS33', accountNumber: '1' } },
      422,
      'invalid_fixed_route',
      'correspondentBank',
    ],
    [
      { sourceCurrency: 'USD', sweepTargetAccountId: usd, documentIds: ['doc_00000000000000000000000000'] },
      422,
      'invalid_fixed_route',
      'documentIds.0',
    ],
    [{ sourceCurrency: 'USD', sweepTargetAccountId: bank, destinationRail: 'SEPA' }, 422, 'invalid_payment_rail', 'destinationRail'],
    [{ sourceCurrency: 'USD', sweepTargetAccountId: 'acc_00000000000000000000000000' }, 404, 'resource_not_found', ''],
    [{ sourceCurrency: 'GBP', sweepTargetAccountId: usd }, 400, 'invalid_request', 'body.sourceCurrency'],
  ]
  for (const [body, status, code, field] of cases) {
    const res = await createRoute(h, alice, body)
    t.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`)
    t.equal(res.json().code, code)
    if (field)
      t.ok(
        res.json().details.some((d: { field: string }) => d.field === field),
        `names ${field}`,
      )
  }
  const pending = await approvedCustomer(h, ['USD_BALANCE'])
  const pendingUsd = await usdBalance(h, pending)
  const missing = await createRoute(h, pending, { sourceCurrency: 'USD', sweepTargetAccountId: pendingUsd })
  t.equal(missing.json().code, 'customer_capability_missing')
  const accounts = (await h.request({ method: 'GET', url: `/v1/customers/${alice}/accounts?type=VIRTUAL_BANK` })).json()
  t.equal(accounts.total, 0, 'no route account was opened by a refused request')
})

t.test('disable and enable', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  const route = await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  const off = await h.request({ method: 'POST', url: `/v1/fixed-routes/${route.id}/disable` })
  t.equal(off.statusCode, 200)
  t.match(off.json(), { status: 'DISABLED', enabled: false })
  t.match((await h.request({ method: 'POST', url: `/v1/fixed-routes/${route.id}/disable` })).json(), { status: 'DISABLED' }, 'idempotent')
  const refused = await h.request({
    method: 'POST',
    url: `/v1/sandbox/fixed-routes/${route.id}/simulate-deposit`,
    payload: { amount: '10.00' },
  })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'fixed_route_disabled')
  const on = await h.request({ method: 'POST', url: `/v1/fixed-routes/${route.id}/enable` })
  t.match(on.json(), { status: 'ACTIVE', enabled: true })
  t.equal((await h.request({ method: 'POST', url: `/v1/fixed-routes/${usd}/disable` })).statusCode, 404, 'not a route')
})

t.test('a customer holds at most 100 fixed routes', async (t) => {
  const h = await startTestApp(t)
  const alice = await approvedCustomer(h)
  const usd = await usdBalance(h, alice)
  for (let i = 0; i < 100; i++) await fixedRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  const over = await createRoute(h, alice, { sourceCurrency: 'USD', sweepTargetAccountId: usd })
  t.equal(over.statusCode, 422)
  t.equal(over.json().code, 'fixed_route_limit_reached')
  const bob = await approvedCustomer(h)
  t.equal(
    (await createRoute(h, bob, { sourceCurrency: 'USD', sweepTargetAccountId: await usdBalance(h, bob) })).statusCode,
    201,
    'per customer',
  )
})

t.test('production: the deposit simulation (and every sandbox operation) is 403', async (t) => {
  const prod = await startTestApp(t, { APP_ENV: 'production' })
  const res = await prod.request({
    method: 'POST',
    url: '/v1/sandbox/fixed-routes/vba_00000000000000000000000000/simulate-deposit',
    payload: { amount: '1.00' },
  })
  t.equal(res.statusCode, 403)
  t.equal(res.json().code, 'sandbox_only')
  for (const url of [
    '/v1/sandbox/transfers/tfr_00000000000000000000000000/advance',
    '/v1/sandbox/accounts/acc_00000000000000000000000000/fund-in',
  ])
    t.equal((await prod.request({ method: 'POST', url, payload: {} })).statusCode, 403, url)
})
