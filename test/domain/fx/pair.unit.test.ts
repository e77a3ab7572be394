// The pair rules of domain/fx/pair.ts: the shape (network for crypto, rail for fiat, never both),
// the fiat source rails, the corridors an upstream supports, and the order they are checked in;
// and the corridor list (every listed pair passes checkPair, each once).
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { ALL_CORRIDORS, customerMayUse, pairCapabilities } from '../../../domain/fx/corridors.js'
import { type FlatPair, checkPair, flatPair, pairKey, pairKind } from '../../../domain/fx/pair.js'

function refusal(input: FlatPair): { kind: string; code: string; fields: string[] } {
  try {
    checkPair(input)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { kind: error.kind, code: error.code, fields: error.details.map((d) => d.field) }
  }
  throw new Error(`accepted ${JSON.stringify(input)}`)
}

t.test('a stablecoin pair and a fiat pair', async (t) => {
  const stable = checkPair({ sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'USDT', destinationNetwork: 'TRON' })
  t.same(stable, {
    source: { kind: 'CRYPTO', currency: 'USDC', network: 'BASE' },
    destination: { kind: 'CRYPTO', currency: 'USDT', network: 'TRON' },
  })
  t.equal(pairKind(stable), 'STABLECOIN')
  t.equal(pairKey(stable), 'USDC.BASE>USDT.TRON')
  const fiat = checkPair({ sourceCurrency: 'EUR', sourceRail: 'SEPA_INSTANT', destinationCurrency: 'USDC', destinationNetwork: 'SOLANA' })
  t.equal(pairKind(fiat), 'FIAT')
  t.same(flatPair(fiat), { sourceCurrency: 'EUR', sourceRail: 'SEPA_INSTANT', destinationCurrency: 'USDC', destinationNetwork: 'SOLANA' })
  t.equal(
    pairKind(checkPair({ sourceCurrency: 'GBP', sourceRail: 'FASTER_PAYMENTS', destinationCurrency: 'MXN', destinationRail: 'SWIFT' })),
    'FIAT',
  )
})

t.test('the shape: every wrong slot named, as a 400', async (t) => {
  t.same(refusal({ sourceCurrency: 'USDC', destinationCurrency: 'EUR' }), {
    kind: 'bad_request',
    code: 'fx_pair_shape_invalid',
    fields: ['sourceNetwork', 'destinationRail'],
  })
  t.same(
    refusal({
      sourceCurrency: 'USDC',
      sourceNetwork: 'BASE',
      sourceRail: 'SEPA',
      destinationCurrency: 'EUR',
      destinationRail: 'SEPA',
      destinationNetwork: 'BASE',
    }).fields,
    ['sourceRail', 'destinationNetwork'],
    'both slots filled',
  )
})

t.test('fiat sources: SEPA or SEPA_INSTANT for EUR, FASTER_PAYMENTS for GBP, nothing else', async (t) => {
  for (const [currency, rail] of [
    ['EUR', 'SWIFT'],
    ['EUR', 'FASTER_PAYMENTS'],
    ['GBP', 'SEPA'],
    ['USD', 'ACH'],
    ['USD', 'WIRE'],
    ['MXN', 'SPEI'],
  ] as const)
    t.match(
      refusal({ sourceCurrency: currency, sourceRail: rail, destinationCurrency: 'USDC', destinationNetwork: 'SOLANA' }),
      { kind: 'bad_request', code: 'fx_source_rail_not_supported' },
      `${currency} on ${rail}`,
    )
})

t.test('corridors no upstream quotes: 404 fx_pair_unsupported', async (t) => {
  const cases: [string, FlatPair][] = [
    ['BTC', { sourceCurrency: 'BTC', sourceNetwork: 'BITCOIN', destinationCurrency: 'USDC', destinationNetwork: 'SOLANA' }],
    ['USDC on Tron', { sourceCurrency: 'USDC', sourceNetwork: 'TRON', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }],
    ['USAT on Solana', { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'USAT', destinationNetwork: 'SOLANA' }],
    ['EUR on ACH', { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'EUR', destinationRail: 'ACH' }],
    ['USD on SEPA', { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'USD', destinationRail: 'SEPA' }],
    [
      'GBP on FASTER_PAYMENTS out',
      { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'GBP', destinationRail: 'FASTER_PAYMENTS' },
    ],
    ['CHF', { sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'CHF', destinationRail: 'SWIFT' }],
    ['no currency', { sourceCurrency: 'QQQ', destinationCurrency: 'USDC', destinationNetwork: 'BASE' }],
    ['the same currency', { sourceCurrency: 'EUR', sourceRail: 'SEPA', destinationCurrency: 'EUR', destinationRail: 'SWIFT' }],
  ]
  for (const [what, input] of cases) t.match(refusal(input), { kind: 'not_found', code: 'fx_pair_unsupported' }, what)
})

t.test('the order: the shape, then the source rail, then support', async (t) => {
  t.equal(
    refusal({
      sourceCurrency: 'EUR',
      sourceRail: 'SWIFT',
      destinationCurrency: 'CHF',
      destinationRail: 'SWIFT',
      destinationNetwork: 'BASE',
    }).code,
    'fx_pair_shape_invalid',
  )
  t.equal(
    refusal({ sourceCurrency: 'EUR', sourceRail: 'SWIFT', destinationCurrency: 'CHF', destinationRail: 'SWIFT' }).code,
    'fx_source_rail_not_supported',
  )
})

t.test('the corridor list: each pair once, each one checkPair accepts', async (t) => {
  const keys = ALL_CORRIDORS.map(pairKey)
  t.equal(new Set(keys).size, keys.length, 'no pair twice')
  t.ok(
    ALL_CORRIDORS.every((pair) => pairKey(checkPair(flatPair(pair))) === pairKey(pair)),
    'every listed pair passes the rules',
  )
  t.ok(keys.includes('USDC.ETHEREUM>USAT.ETHEREUM') && keys.includes('GBP.FASTER_PAYMENTS>VND.SWIFT') && keys.includes('USDT.TRON>USD.ACH'))
  t.notOk(
    keys.some((k) => k.startsWith('USD.') || k.includes('.SWIFT>')),
    'USD is never a source; SWIFT never a source rail',
  )
})

t.test("a customer's pairs: the transfer capabilities of the same sides", async (t) => {
  const pair = checkPair({ sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'MXN', destinationRail: 'SWIFT' })
  t.same(pairCapabilities(pair).sort(), ['MXN_FX_PAYOUT', 'STABLECOIN_PAYIN', 'SWIFT_PAYOUT'])
  const facts = { customerId: 'cus_x', status: 'APPROVED', requestedCapabilities: ['STABLECOIN_PAYIN', 'SWIFT_PAYOUT', 'MXN_FX_PAYOUT'] }
  t.ok(customerMayUse(facts, pair))
  t.notOk(customerMayUse({ ...facts, status: 'UNDER_REVIEW' }, pair), 'only an APPROVED customer')
  t.notOk(customerMayUse({ ...facts, requestedCapabilities: ['STABLECOIN_PAYIN', 'SWIFT_PAYOUT'] }, pair), 'every capability')
  const swap = checkPair({ sourceCurrency: 'USDC', sourceNetwork: 'BASE', destinationCurrency: 'USDT', destinationNetwork: 'TRON' })
  t.same(pairCapabilities(swap).sort(), ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT', 'STABLECOIN_SWAPS'])
})
