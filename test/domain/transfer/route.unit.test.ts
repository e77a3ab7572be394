// A transfer's route (domain/transfer/route.ts): the flow derived from every combination of sides
// (as the file's header lists them), the legs planned (types, currencies, rails; two conversions
// through USDC between two fiat currencies), and every problem that makes a route impossible,
// reported all at once.
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { railCarries } from '../../../domain/rails/index.js'
import {
  BRIDGE_ASSET,
  type RouteSide,
  SYSTEM_FLOWS,
  TRANSFER_FLOWS,
  assertRoute,
  assetClassOf,
  deriveFlow,
  paymentRailOf,
  planLegs,
  routeProblems,
} from '../../../domain/transfer/route.js'
import { SIDES } from './transferFixtures.js'

const eurBalance: RouteSide = {
  kind: 'BALANCE',
  accountId: 'acc_01jdtfr00000000000000000eur',
  currency: 'EUR',
  assetClass: 'FIAT',
  chain: null,
}

t.test('deriveFlow: every combination of sides gives the header’s flow', async (t) => {
  const cases: [RouteSide, RouteSide, string][] = [
    // balance → balance
    [SIDES.usdBalance, SIDES.otherUsdBalance, 'INTERNAL'],
    [SIDES.usdcBalance, SIDES.usdcBalance, 'INTERNAL'],
    [SIDES.usdBalance, eurBalance, 'FX'],
    [SIDES.usdBalance, SIDES.usdcBalance, 'FX'],
    [SIDES.usdcBalance, SIDES.usdtBalance, 'FX'],
    // fiat → fiat
    [SIDES.ach, SIDES.wire, 'FIAT_TO_FIAT'],
    [SIDES.usdBalance, SIDES.ach, 'FIAT_TO_FIAT'],
    [SIDES.ach, SIDES.usdBalance, 'FIAT_TO_FIAT'],
    [SIDES.ach, SIDES.sepa, 'FIAT_TO_CRYPTO_TO_FIAT'],
    [SIDES.usdBalance, SIDES.spei, 'FIAT_TO_CRYPTO_TO_FIAT'],
    [SIDES.sepa, eurBalance, 'FIAT_TO_FIAT'],
    [SIDES.sepa, SIDES.usdBalance, 'FIAT_TO_CRYPTO_TO_FIAT'],
    // fiat → crypto
    [SIDES.ach, SIDES.ethUsdc, 'FIAT_TO_CRYPTO'],
    [SIDES.usdBalance, SIDES.solUsdc, 'FIAT_TO_CRYPTO'],
    [SIDES.ach, SIDES.usdcBalance, 'FIAT_TO_CRYPTO'],
    [SIDES.sepa, SIDES.tronUsdt, 'FIAT_TO_CRYPTO'],
    // crypto → fiat
    [SIDES.ethUsdc, SIDES.ach, 'CRYPTO_TO_FIAT'],
    [SIDES.usdcBalance, SIDES.sepa, 'CRYPTO_TO_FIAT'],
    [SIDES.solUsdc, SIDES.usdBalance, 'CRYPTO_TO_FIAT'],
    // crypto → crypto
    [SIDES.ethUsdc, SIDES.solUsdc, 'CRYPTO_TO_CRYPTO'],
    [SIDES.ethUsdc, SIDES.tronUsdt, 'CRYPTO_TO_CRYPTO'],
    [SIDES.usdcBalance, SIDES.solUsdc, 'CRYPTO_TO_CRYPTO'],
    [SIDES.solUsdc, SIDES.usdcBalance, 'CRYPTO_TO_CRYPTO'],
    [SIDES.bitcoin, SIDES.bitcoin, 'CRYPTO_TO_CRYPTO'],
  ]
  for (const [source, destination, flow] of cases)
    t.equal(
      deriveFlow(source, destination),
      flow,
      `${paymentRailOf(source)} ${source.currency} → ${paymentRailOf(destination)} ${destination.currency}`,
    )
  const derived = new Set(cases.map(([s, d]) => deriveFlow(s, d)))
  t.same(
    TRANSFER_FLOWS.filter((f) => !derived.has(f)),
    SYSTEM_FLOWS,
    'every caller flow is derived from some sides; the system flows from none',
  )
})

t.test('assetClassOf and paymentRailOf', async (t) => {
  t.equal(assetClassOf(SIDES.usdBalance), 'FIAT')
  t.equal(assetClassOf(SIDES.usdcBalance), 'CRYPTO')
  t.equal(assetClassOf(SIDES.ach), 'FIAT')
  t.equal(assetClassOf(SIDES.ethUsdc), 'CRYPTO')
  t.equal(paymentRailOf(SIDES.usdBalance), 'BALANCE')
  t.equal(paymentRailOf(SIDES.sepa), 'SEPA')
  t.equal(paymentRailOf(SIDES.solUsdc), 'SOLANA')
})

t.test('planLegs: in, (convert), out, with each leg’s currencies and rails', async (t) => {
  t.same(planLegs(SIDES.usdBalance, SIDES.otherUsdBalance), [
    { type: 'BALANCE_DEBIT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'BALANCE', outputRail: 'BALANCE' },
    { type: 'BALANCE_CREDIT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'BALANCE', outputRail: 'BALANCE' },
  ])
  t.same(planLegs(SIDES.ethUsdc, SIDES.solUsdc), [
    { type: 'DEPOSIT_CRYPTO', inputCurrency: 'USDC', outputCurrency: 'USDC', inputRail: 'ETHEREUM', outputRail: 'ETHEREUM' },
    { type: 'PAYOUT_CRYPTO', inputCurrency: 'USDC', outputCurrency: 'USDC', inputRail: 'SOLANA', outputRail: 'SOLANA' },
  ])
  t.same(planLegs(SIDES.ach, SIDES.ethUsdc), [
    { type: 'DEPOSIT_FIAT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'ACH', outputRail: 'ACH' },
    { type: 'CONVERT', inputCurrency: 'USD', outputCurrency: 'USDC', inputRail: 'ACH', outputRail: 'ETHEREUM' },
    { type: 'PAYOUT_CRYPTO', inputCurrency: 'USDC', outputCurrency: 'USDC', inputRail: 'ETHEREUM', outputRail: 'ETHEREUM' },
  ])
  t.same(planLegs(SIDES.usdcBalance, SIDES.ach), [
    { type: 'BALANCE_DEBIT', inputCurrency: 'USDC', outputCurrency: 'USDC', inputRail: 'BALANCE', outputRail: 'BALANCE' },
    { type: 'CONVERT', inputCurrency: 'USDC', outputCurrency: 'USD', inputRail: 'BALANCE', outputRail: 'ACH' },
    { type: 'PAYOUT_FIAT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'ACH', outputRail: 'ACH' },
  ])
  t.same(planLegs(SIDES.ach, SIDES.wire), [
    { type: 'DEPOSIT_FIAT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'ACH', outputRail: 'ACH' },
    { type: 'PAYOUT_FIAT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'WIRE', outputRail: 'WIRE' },
  ])
})

t.test('planLegs: FIAT_TO_CRYPTO_TO_FIAT converts twice, through USDC on the balance', async (t) => {
  t.equal(BRIDGE_ASSET, 'USDC')
  t.same(planLegs(SIDES.ach, SIDES.sepa), [
    { type: 'DEPOSIT_FIAT', inputCurrency: 'USD', outputCurrency: 'USD', inputRail: 'ACH', outputRail: 'ACH' },
    { type: 'CONVERT', inputCurrency: 'USD', outputCurrency: 'USDC', inputRail: 'ACH', outputRail: 'BALANCE' },
    { type: 'CONVERT', inputCurrency: 'USDC', outputCurrency: 'EUR', inputRail: 'BALANCE', outputRail: 'SEPA' },
    { type: 'PAYOUT_FIAT', inputCurrency: 'EUR', outputCurrency: 'EUR', inputRail: 'SEPA', outputRail: 'SEPA' },
  ])
  t.same(
    planLegs(SIDES.usdBalance, eurBalance).map((l) => l.type),
    ['BALANCE_DEBIT', 'CONVERT', 'CONVERT', 'BALANCE_CREDIT'],
    'an FX between two fiat balances too',
  )
})

t.test('planLegs: the legs chain (each leg’s output is the next one’s input)', async (t) => {
  const sides = Object.values(SIDES)
  for (const source of sides)
    for (const destination of sides) {
      const legs = planLegs(source, destination)
      const name = `${paymentRailOf(source)} ${source.currency} → ${paymentRailOf(destination)} ${destination.currency}`
      t.equal(legs[0]!.inputCurrency, source.currency, `${name}: starts in the source currency`)
      t.equal(legs.at(-1)!.outputCurrency, destination.currency, `${name}: ends in the destination currency`)
      t.ok(
        legs.slice(1).every((leg, i) => leg.inputCurrency === legs[i]!.outputCurrency),
        `${name}: currencies chain`,
      )
      t.ok(legs.length >= 2 && legs.length <= 4, `${name}: 2 to 4 legs`)
    }
})

t.test('routeProblems: each reason a route is impossible, with its field', async (t) => {
  t.same(routeProblems(SIDES.ethUsdc, SIDES.solUsdc), [], 'a possible route has none')
  t.same(routeProblems({ kind: 'CHAIN', chain: 'TRON', currency: 'USDC' }, SIDES.solUsdc), [
    { field: 'source.currency', message: 'TRON does not carry USDC', value: 'USDC' },
  ])
  t.same(routeProblems(SIDES.ethUsdc, { kind: 'CHAIN', chain: 'BASE', currency: 'USDT' }), [
    { field: 'destination.currency', message: 'BASE does not carry USDT', value: 'USDT' },
  ])
  t.notOk(railCarries('ACH', 'EUR'))
  t.same(routeProblems({ kind: 'FIAT_RAIL', rail: 'ACH', currency: 'EUR' }, SIDES.ethUsdc), [
    { field: 'source.currency', message: 'ACH does not carry EUR', value: 'EUR' },
  ])
  t.same(routeProblems(SIDES.ethUsdc, { kind: 'FIAT_RAIL', rail: 'SEPA', currency: 'USD' }), [
    { field: 'destination.currency', message: 'SEPA does not carry USD', value: 'USD' },
  ])
  t.notOk(railCarries('ELIXIR', 'PLN'), 'a rail the sandbox does not settle carries nothing')
  t.same(routeProblems(SIDES.ethUsdc, { kind: 'FIAT_RAIL', rail: 'ELIXIR', currency: 'PLN' }), [
    { field: 'destination.currency', message: 'ELIXIR does not carry PLN', value: 'PLN' },
  ])
  t.same(routeProblems(SIDES.usdBalance, SIDES.usdBalance), [
    { field: 'destination.accountId', message: 'must differ from the source account', value: SIDES.usdBalance.accountId },
  ])
  t.same(routeProblems(SIDES.bitcoin, SIDES.bitcoin), [], 'BTC to BTC is carried')
  t.same(routeProblems(SIDES.bitcoin, SIDES.ethUsdc), [
    { field: 'destination.currency', message: 'BTC is not converted: BTC routes carry BTC on both sides', value: 'USDC' },
  ])
  t.same(routeProblems(SIDES.ach, SIDES.bitcoin), [
    { field: 'destination.currency', message: 'BTC is not converted: BTC routes carry BTC on both sides', value: 'BTC' },
  ])
})

t.test('routeProblems: several problems at once; assertRoute names them all in one 422', async (t) => {
  const source: RouteSide = { kind: 'FIAT_RAIL', rail: 'ACH', currency: 'EUR' }
  const destination: RouteSide = { kind: 'CHAIN', chain: 'ETHEREUM', currency: 'BTC' }
  const problems = routeProblems(source, destination)
  t.same(
    problems.map((p) => p.message),
    ['ACH does not carry EUR', 'ETHEREUM does not carry BTC', 'BTC is not converted: BTC routes carry BTC on both sides'],
  )
  try {
    assertRoute(source, destination)
    t.fail('expected a refusal')
  } catch (error) {
    t.ok(error instanceof DomainError)
    t.match(error, { kind: 'validation', code: 'route_not_supported', message: 'No route from ACH EUR to ETHEREUM BTC' })
    t.same((error as DomainError).details, problems)
  }
  t.doesNotThrow(() => assertRoute(SIDES.ach, SIDES.sepa))
})
