// A transfer's price (domain/transfer/pricing.ts) against an independent model in BigInt: the fee
// is fixed + percent (HALF_UP) in minor units, withheld from the source; the destination is
// floor((source − fee) × rate) across exponents; a destination-side amount is met by the smallest
// source that reaches it; floor(source × exchangeRate) is the destination exactly. Never a float.
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { DomainError } from '../../../domain/errors.js'
import { REFERENCE_RATE_PROVIDER } from '../../../domain/rates/referenceRates.js'
import { type FeeTerms, type PriceRequest, feeFor, price } from '../../../domain/transfer/pricing.js'

/** The model's reference rates: major units per USD as [numerator, denominator], and exponents. */
const PER_USD: Record<string, [bigint, bigint]> = {
  USD: [1n, 1n],
  USDC: [1n, 1n],
  USDT: [1n, 1n],
  EUR: [92n, 100n],
  MXN: [171n, 10n],
  JPY: [150n, 1n],
  BRL: [54n, 10n],
}
const EXPONENT: Record<string, bigint> = { USD: 2n, USDC: 6n, USDT: 6n, EUR: 2n, MXN: 2n, JPY: 0n, BRL: 2n }
const CURRENCIES = Object.keys(PER_USD)

const halfUp = (num: bigint, den: bigint) => (2n * num + den) / (2n * den)
function modelFee(source: bigint, fee: FeeTerms): bigint {
  if (fee.percent === null) return fee.fixedMinor
  const [whole, fraction = ''] = fee.percent.split('.')
  return fee.fixedMinor + halfUp(source * BigInt(whole! + fraction), 10n ** BigInt(fraction.length))
}
/** floor(net × destination-per-source) in the destination's minor units. */
function modelConvert(net: bigint, from: string, to: string): bigint {
  const [fn, fd] = PER_USD[from]!
  const [tn, td] = PER_USD[to]!
  // destination major per source major = (tn/td) / (fn/fd)
  return (net * tn * fd * 10n ** EXPONENT[to]!) / (td * fn * 10n ** EXPONENT[from]!)
}
const modelDestination = (source: bigint, from: string, to: string, fee: FeeTerms) => {
  const net = source - modelFee(source, fee)
  return net > 0n ? modelConvert(net, from, to) : 0n
}
/** floor(amount × decimal) exactly, the decimal as written. */
function timesDecimal(amount: bigint, decimal: string): bigint {
  const [whole, fraction = ''] = decimal.split('.')
  return (amount * BigInt(whole! + fraction)) / 10n ** BigInt(fraction.length)
}

const NO_FEE: FeeTerms = { fixedMinor: 0n, percent: null }
const source = (from: string, to: string, minor: bigint, fee: FeeTerms = NO_FEE): PriceRequest => ({
  sourceCurrency: from,
  destinationCurrency: to,
  amount: { side: 'SOURCE', minor },
  fee,
})

function refused(t: Test, request: PriceRequest): DomainError | undefined {
  try {
    price(request)
    t.fail('expected a refusal')
  } catch (error) {
    t.ok(error instanceof DomainError)
    return error as DomainError
  }
  return undefined
}

t.test('fee: fixed + percent of the source, the percent part rounded HALF_UP, in minor units', async (t) => {
  t.equal(feeFor(10_000n, 'USD', NO_FEE), 0n)
  t.equal(feeFor(10_000n, 'USD', { fixedMinor: 50n, percent: null }), 50n)
  t.equal(feeFor(10_000n, 'USD', { fixedMinor: 0n, percent: '0.015' }), 150n, '1.5% of 100.00')
  t.equal(feeFor(10_000n, 'USD', { fixedMinor: 50n, percent: '0.015' }), 200n)
  t.equal(feeFor(1033n, 'USD', { fixedMinor: 0n, percent: '0.015' }), 15n, '15.495 rounds down')
  t.equal(feeFor(1100n, 'USD', { fixedMinor: 0n, percent: '0.015' }), 17n, '16.5 rounds half up')
  t.equal(feeFor(1n, 'USD', { fixedMinor: 0n, percent: '0.5' }), 1n, '0.5 rounds up')
  t.equal(feeFor(123_456_789n, 'USDC', { fixedMinor: 1n, percent: '0.0025' }), 308_643n, '308 641.97… + 1')
})

t.test('destination = floor((source − fee) × rate) across exponents', async (t) => {
  const usdToUsdc = price(source('USD', 'USDC', 10_000n))
  t.match(usdToUsdc, { sourceMinor: 10_000n, destinationMinor: 100_000_000n, feeMinor: 0n, exchangeRate: '10000', referenceRate: '1' })
  t.equal(usdToUsdc.referenceProvider, REFERENCE_RATE_PROVIDER)
  t.equal(price(source('USD', 'USDC', 10_000n, { fixedMinor: 100n, percent: null })).destinationMinor, 99_000_000n, 'fee withheld first')
  t.match(price(source('USDC', 'MXN', 10_000_000n)), { destinationMinor: 17_100n, referenceRate: '17.1' }, '10 USDC → 171.00 MXN')
  t.equal(price(source('USDC', 'MXN', 1_234_567n)).destinationMinor, 2111n, 'floor(1.234567 × 17.1 × 100) = floor(2111.109…)')
  t.match(price(source('USD', 'JPY', 100n)), { destinationMinor: 150n, referenceRate: '150' }, '1.00 USD → 150 JPY')
  t.equal(price(source('JPY', 'USD', 150n)).destinationMinor, 100n)
  t.equal(price(source('JPY', 'USD', 149n)).destinationMinor, 99n, '149 JPY is 0.99333… USD: floored')
  t.equal(price(source('USD', 'EUR', 10_000n)).destinationMinor, 9_200n)
  t.equal(price(source('EUR', 'USD', 10_000n)).referenceRate, '1.0869565217', '1 / 0.92 at 10 places')
  t.equal(price(source('MXN', 'USD', 100n)).referenceRate, '0.0584795322', '1 / 17.1 at 10 places, half up')
})

t.test('refusals: a fee that takes the whole amount, an amount that converts to nothing, no rate', async (t) => {
  let e = refused(t, source('USD', 'USDC', 10_000n, { fixedMinor: 10_000n, percent: null }))
  t.match(e, { kind: 'validation', code: 'developer_fee_exceeds_amount' })
  t.same(
    e?.details.map((d) => d.field),
    ['developerFeeFixed'],
  )
  e = refused(t, source('USD', 'USDC', 10_000n, { fixedMinor: 20_000n, percent: null }))
  t.match(e, { code: 'developer_fee_exceeds_amount' }, 'a fee above the amount')
  e = refused(t, source('USD', 'USDC', 10_000n, { fixedMinor: 0n, percent: '1' }))
  t.match(e, { code: 'developer_fee_exceeds_amount' }, '100%')
  e = refused(t, source('USD', 'USDC', 10_000n, { fixedMinor: 1n, percent: '0.99995' }))
  t.match(e, { code: 'developer_fee_exceeds_amount' }, '9999.5 rounds up to 10 000, plus 1')
  t.equal(price(source('USD', 'USDC', 10_000n, { fixedMinor: 9_999n, percent: null })).destinationMinor, 10_000n, 'one cent left is sent')
  e = refused(t, source('JPY', 'USD', 1n))
  t.match(e, { code: 'amount_too_small' }, '1 JPY is less than a cent')
  e = refused(t, source('USD', 'BTC', 10_000n))
  t.match(e, { code: 'route_not_supported' }, 'no reference rate for BTC')
})

t.test('destination side: the smallest source that reaches the amount', async (t) => {
  const p = price({ sourceCurrency: 'USD', destinationCurrency: 'USDC', amount: { side: 'DESTINATION', minor: 100_000_000n }, fee: NO_FEE })
  t.match(p, { sourceMinor: 10_000n, destinationMinor: 100_000_000n })
  const withFee = price({
    sourceCurrency: 'USD',
    destinationCurrency: 'MXN',
    amount: { side: 'DESTINATION', minor: 17_100n },
    fee: { fixedMinor: 100n, percent: null },
  })
  t.match(withFee, { sourceMinor: 1_100n, feeMinor: 100n, destinationMinor: 17_100n }, '10.00 USD net + 1.00 fee for 171.00 MXN')
  const odd = price({ sourceCurrency: 'MXN', destinationCurrency: 'USD', amount: { side: 'DESTINATION', minor: 1n }, fee: NO_FEE })
  t.match(odd, { sourceMinor: 18n, destinationMinor: 1n }, '0.18 MXN is the first amount worth a cent (0.17 is 0.0099…)')
})

const feeArb = fc.record({
  fixedMinor: fc.bigInt({ min: 0n, max: 1_000_000n }),
  percent: fc.constantFrom(null, '0.01', '0.015', '0.0025', '0.1', '0.5', '0.123456789'),
})
const pairArb = fc.tuple(fc.constantFrom(...CURRENCIES), fc.constantFrom(...CURRENCIES))
const SEED = { seed: 20261124, numRuns: 500 }
const EXACT_RATE_BOUND = 10n ** 30n

t.test('property: a destination-side price reaches the amount with the smallest source', async (t) => {
  fc.assert(
    fc.property(pairArb, fc.bigInt({ min: 1n, max: 10n ** 14n }), feeArb, ([from, to], asked, fee) => {
      const p = price({ sourceCurrency: from, destinationCurrency: to, amount: { side: 'DESTINATION', minor: asked }, fee })
      if (p.destinationMinor !== asked) return false
      if (p.feeMinor !== modelFee(p.sourceMinor, fee)) return false
      if (modelDestination(p.sourceMinor, from, to, fee) < asked) return false
      return p.sourceMinor === 1n || modelDestination(p.sourceMinor - 1n, from, to, fee) < asked
    }),
    SEED,
  )
  t.pass('held for every sampled amount, pair and fee')
})

t.test('property: a source-side price is the model’s floor((source − fee) × rate)', async (t) => {
  fc.assert(
    fc.property(pairArb, fc.bigInt({ min: 1n, max: 10n ** 16n }), feeArb, ([from, to], amount, fee) => {
      const expected = modelDestination(amount, from, to, fee)
      const feeMinor = modelFee(amount, fee)
      let p
      try {
        p = price(source(from, to, amount, fee))
      } catch (error) {
        const code = (error as DomainError).code
        // Refused exactly when the model says the fee takes it all or nothing arrives.
        return feeMinor >= amount ? code === 'developer_fee_exceeds_amount' : expected === 0n && code === 'amount_too_small'
      }
      return p.sourceMinor === amount && p.feeMinor === feeMinor && p.destinationMinor === expected && expected > 0n
    }),
    SEED,
  )
  t.pass('held for every sampled amount, pair and fee')
})

t.test('property: floor(source × exchangeRate) is the destination exactly (BigInt decimals)', async (t) => {
  fc.assert(
    fc.property(
      pairArb,
      fc.bigInt({ min: 1n, max: 10n ** 17n }),
      fc.constantFrom('SOURCE' as const, 'DESTINATION' as const),
      feeArb,
      ([from, to], amount, side, fee) => {
        let p
        try {
          p = price({ sourceCurrency: from, destinationCurrency: to, amount: { side, minor: amount }, fee })
        } catch {
          return true // refusals are the property above's
        }
        // The documented bound of the 31-place rate: exact for every amount the API takes (below 10^30 minor units).
        if (p.sourceMinor >= EXACT_RATE_BOUND) return true
        const rate = p.exchangeRate
        return /^\d+(\.\d{1,31})?$/.test(rate) && timesDecimal(p.sourceMinor, rate) === p.destinationMinor
      },
    ),
    SEED,
  )
  t.pass('held for every sampled price')
})
