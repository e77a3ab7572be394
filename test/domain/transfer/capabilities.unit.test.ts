// Who may send a transfer (domain/transfer/capabilities.ts): the capabilities each combination of
// sides requires (the header's map from rail to capability), and assertMaySend's refusals: a
// customer who is not APPROVED, and one missing capabilities, each listed in the details.
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { assertMaySend, requiredCapabilities } from '../../../domain/transfer/capabilities.js'
import type { RouteSide } from '../../../domain/transfer/route.js'
import { CUSTOMER, SIDES } from './transferFixtures.js'

const eurBalance: RouteSide = {
  kind: 'BALANCE',
  accountId: 'acc_01jdtfr00000000000000000eur',
  currency: 'EUR',
  assetClass: 'FIAT',
  chain: null,
}
const achSameDay: RouteSide = { kind: 'FIAT_RAIL', rail: 'ACH_SAME_DAY', currency: 'USD' }
const fedwire: RouteSide = { kind: 'FIAT_RAIL', rail: 'FEDWIRE', currency: 'USD' }
const swiftEur: RouteSide = { kind: 'FIAT_RAIL', rail: 'SWIFT', currency: 'EUR' }

t.test('requiredCapabilities for each combination of sides', async (t) => {
  const cases: [RouteSide, RouteSide, string[]][] = [
    [SIDES.ach, SIDES.ethUsdc, ['USD_ACH_PAYIN', 'STABLECOIN_PAYOUT']],
    [achSameDay, SIDES.solUsdc, ['USD_ACH_PAYIN', 'STABLECOIN_PAYOUT']],
    [SIDES.wire, SIDES.ach, ['USD_WIRE_PAYIN', 'USD_ACH_PAYOUT']],
    [fedwire, SIDES.wire, ['USD_WIRE_PAYIN', 'USD_WIRE_PAYOUT']],
    [SIDES.swiftUsd, SIDES.swiftUsd, ['SWIFT_PAYIN', 'SWIFT_PAYOUT']],
    [SIDES.ethUsdc, swiftEur, ['STABLECOIN_PAYIN', 'SWIFT_PAYOUT', 'EUR_FX_PAYOUT']],
    [SIDES.ethUsdc, SIDES.ach, ['STABLECOIN_PAYIN', 'USD_ACH_PAYOUT']],
    [SIDES.ethUsdc, SIDES.sepa, ['STABLECOIN_PAYIN', 'EUR_FX_PAYOUT']],
    [SIDES.ethUsdc, SIDES.spei, ['STABLECOIN_PAYIN', 'MXN_FX_PAYOUT']],
    [SIDES.ethUsdc, SIDES.solUsdc, ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT']],
    [SIDES.ethUsdc, SIDES.tronUsdt, ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT', 'STABLECOIN_SWAPS']],
    [SIDES.sepa, SIDES.ethUsdc, ['STABLECOIN_PAYOUT']],
    [SIDES.usdBalance, SIDES.otherUsdBalance, ['USD_BALANCE']],
    [SIDES.usdBalance, SIDES.ach, ['USD_ACH_PAYOUT', 'USD_BALANCE']],
    [SIDES.ach, SIDES.usdBalance, ['USD_ACH_PAYIN', 'USD_BALANCE']],
    [SIDES.usdBalance, SIDES.usdcBalance, ['USD_BALANCE']],
    [SIDES.usdcBalance, SIDES.usdtBalance, ['STABLECOIN_SWAPS']],
    [SIDES.usdcBalance, SIDES.solUsdc, ['STABLECOIN_PAYOUT']],
    [SIDES.usdcBalance, SIDES.tronUsdt, ['STABLECOIN_PAYOUT', 'STABLECOIN_SWAPS']],
    [SIDES.solUsdc, SIDES.usdcBalance, ['STABLECOIN_PAYIN']],
    [SIDES.usdcBalance, SIDES.usdcBalance, []],
    [eurBalance, SIDES.sepa, ['EUR_FX_PAYOUT']],
  ]
  for (const [source, destination, expected] of cases)
    t.same(
      [...requiredCapabilities(source, destination)].sort(),
      [...expected].sort(),
      `${source.kind} ${source.currency} → ${destination.kind} ${destination.currency}`,
    )
  t.same(requiredCapabilities(SIDES.usdBalance, SIDES.otherUsdBalance), ['USD_BALANCE'], 'each capability once')
})

const refusal = (run: () => void): DomainError | undefined => {
  try {
    run()
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  return undefined
}

t.test('assertMaySend: only an APPROVED customer sends', async (t) => {
  for (const status of ['NOT_STARTED', 'PENDING', 'IN_REVIEW', 'REJECTED', 'SUSPENDED']) {
    const e = refusal(() =>
      assertMaySend(
        { customerId: CUSTOMER, status, requestedCapabilities: ['USD_ACH_PAYIN', 'STABLECOIN_PAYOUT'] },
        SIDES.ach,
        SIDES.ethUsdc,
      ),
    )
    t.match(e, { kind: 'validation', code: 'customer_not_approved' }, status)
    t.match(e?.message, status, `${status}: named`)
    t.same(e?.details, [{ field: 'sourceCustomerId', message: 'must be an APPROVED customer', value: CUSTOMER }])
  }
})

t.test('assertMaySend: every missing capability is listed in the details', async (t) => {
  const e = refusal(() => assertMaySend({ customerId: CUSTOMER, status: 'APPROVED', requestedCapabilities: [] }, SIDES.ethUsdc, swiftEur))
  t.match(e, { kind: 'validation', code: 'customer_capability_missing' })
  t.same(e?.details.map((d) => d.value).sort(), ['EUR_FX_PAYOUT', 'STABLECOIN_PAYIN', 'SWIFT_PAYOUT'])
  t.ok(
    e?.details.every((d) => d.field === 'requestedCapabilities' && d.message === `the customer must have requested ${String(d.value)}`),
    'each detail names its capability',
  )
  t.match(e?.message, /STABLECOIN_PAYIN.*SWIFT_PAYOUT.*EUR_FX_PAYOUT/)

  const partial = refusal(() =>
    assertMaySend({ customerId: CUSTOMER, status: 'APPROVED', requestedCapabilities: ['SWIFT_PAYOUT'] }, SIDES.ethUsdc, swiftEur),
  )
  t.same(partial?.details.map((d) => d.value).sort(), ['EUR_FX_PAYOUT', 'STABLECOIN_PAYIN'], 'only the missing ones')

  t.doesNotThrow(
    () =>
      assertMaySend(
        {
          customerId: CUSTOMER,
          status: 'APPROVED',
          requestedCapabilities: ['STABLECOIN_PAYIN', 'SWIFT_PAYOUT', 'EUR_FX_PAYOUT', 'USD_YIELD'],
        },
        SIDES.ethUsdc,
        swiftEur,
      ),
    'all requested (and more): may send',
  )
  t.doesNotThrow(
    () => assertMaySend({ customerId: CUSTOMER, status: 'APPROVED', requestedCapabilities: [] }, SIDES.usdcBalance, SIDES.usdcBalance),
    'a route that needs none',
  )
})
