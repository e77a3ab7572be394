// Money (domain/shared/money): the currency table, exact decimal parsing and formatting, named
// rounding, exact fees and allocation; properties checked with fast-check at a fixed seed.
import fc from 'fast-check'
import t from 'tap'
import { LEDGER_TRANSACTION_LIMITS } from '../../domain/ledger/transaction.js'
import {
  MAX_AMOUNT_MINOR_DIGITS,
  ROUNDING_MODES,
  type RoundingMode,
  allocate,
  amountBoundProblems,
  assertAmountsWithinBound,
  assertBalanceWithinCeiling,
  divideRounded,
  exponentOf,
  feeFromBps,
  feeFromFraction,
  formatDecimal,
  fromWire,
  maxAmountMinor,
  maxBalanceMinor,
  money,
  parseDecimal,
  parseMajor,
  toWire,
} from '../../domain/shared/money/index.js'

const RUNS = { seed: 20261124, numRuns: 500 } as const
const CURRENCIES = ['USD', 'EUR', 'JPY', 'BHD', 'USDC', 'USDT', 'BTC', 'MXN'] as const
const minorAmount = fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n })

t.test('the currency table: ISO 4217 from the standard, crypto assets by their decimals', async (t) => {
  t.same(
    ['USD', 'EUR', 'MXN', 'JPY', 'KRW', 'BHD', 'KWD', 'USDC', 'USDT', 'USAT', 'BTC'].map(exponentOf),
    [2, 2, 2, 0, 0, 3, 3, 6, 6, 6, 8],
  )
  t.equal(exponentOf('XXX'), undefined, 'no minor unit in the standard: not money we move')
  t.equal(exponentOf('usd'), undefined, 'codes are upper case')
  t.equal(exponentOf('ABC'), undefined)
  t.throws(() => money('ABC', 1n), RangeError)
})

t.test('parsing is exact and refuses what it would have to round or guess', async (t) => {
  t.same(parseMajor('12.34', 'USD'), { ok: true, money: { currency: 'USD', amountMinor: 1234n } })
  t.same(parseMajor('0.000001', 'USDC'), { ok: true, money: { currency: 'USDC', amountMinor: 1n } })
  t.same(parseMajor('5', 'JPY'), { ok: true, money: { currency: 'JPY', amountMinor: 5n } })
  t.same(parseMajor('1.5', 'BHD'), { ok: true, money: { currency: 'BHD', amountMinor: 1500n } })
  t.same(parseMajor('0.1', 'USD'), { ok: true, money: { currency: 'USD', amountMinor: 10n } }, 'no float: 0.1 is exactly 10 cents')
  for (const bad of ['1.234', '1e3', ' 1', '1,000.00', '01.00', '.5', '5.', '', '+1', 'NaN', 'Infinity', '0x10', '1_000']) {
    t.equal(parseMajor(bad, 'USD').ok, false, `refuses ${JSON.stringify(bad)}`)
  }
  t.equal(parseMajor('1.5', 'JPY').ok, false, 'JPY has no minor unit')
  t.equal(parseMajor('-1.00', 'USD').ok, false, 'negative refused unless allowed')
  t.same(parseMajor('-1.00', 'USD', { allowNegative: true }), { ok: true, money: { currency: 'USD', amountMinor: -100n } })
  t.equal(parseMajor(`${'9'.repeat(31)}`, 'USD').ok, false, 'bounded length')
})

t.test('format then parse gives back the amount, and parse then format the canonical text', async (t) => {
  fc.assert(
    fc.property(minorAmount, fc.constantFrom(...CURRENCIES), (minor, currency) => {
      const exponent = exponentOf(currency)!
      const text = formatDecimal(minor, exponent)
      const parsed = parseDecimal(text, exponent, { allowNegative: true })
      return parsed.ok && parsed.minor === minor
    }),
    RUNS,
  )
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.nat({ max: 8 }), (minor, exponent) => {
      const text = formatDecimal(minor, exponent)
      const parsed = parseDecimal(text, exponent)
      return parsed.ok && formatDecimal(parsed.minor, exponent) === text
    }),
    RUNS,
  )
  t.equal(formatDecimal(-5n, 2), '-0.05')
  t.equal(formatDecimal(0n, 6), '0.000000')
  t.equal(formatDecimal(1234n, 0), '1234')
})

t.test('the wire object: value and displayValue agree; a wrong exponent or display is refused', async (t) => {
  t.same(toWire(money('USD', 4000n)), { currency: 'USD', exponent: 2, value: '4000', displayValue: '40.00' })
  t.same(toWire(money('USDC', 1n)), { currency: 'USDC', exponent: 6, value: '1', displayValue: '0.000001' })
  fc.assert(
    fc.property(minorAmount, fc.constantFrom(...CURRENCIES), (minor, currency) => {
      const back = fromWire(toWire(money(currency, minor)))
      return back.currency === currency && back.amountMinor === minor
    }),
    RUNS,
  )
  t.throws(() => fromWire({ currency: 'USD', exponent: 6, value: '1', displayValue: '0.01' }), RangeError)
  t.throws(() => fromWire({ currency: 'USD', exponent: 2, value: '1', displayValue: '1.00' }), RangeError)
})

/** The exact quotient compared with the rounded one, as a rational: n/d against q. */
function bracket(n: bigint, d: bigint, q: bigint): -1 | 0 | 1 {
  const diff = n - q * d // sign of n/d - q, with d > 0
  return diff === 0n ? 0 : diff > 0n ? 1 : -1
}

t.test('named rounding: each mode lands on the right side of the exact quotient, within one unit', async (t) => {
  const nonZero = fc.bigInt({ min: 1n, max: 10n ** 12n })
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
      nonZero,
      fc.constantFrom(...ROUNDING_MODES),
      (n, d, mode: RoundingMode) => {
        const q = divideRounded(n, d, mode)
        const side = bracket(n, d, q) // 1: q below the exact value, -1: above
        const withinOne = (n - q * d < 0n ? q * d - n : n - q * d) < d
        if (!withinOne) return false
        switch (mode) {
          case 'FLOOR':
            return side >= 0
          case 'CEILING':
            return side <= 0
          case 'DOWN':
            return n >= 0n ? side >= 0 : side <= 0
          case 'UP':
            return n >= 0n ? side <= 0 : side >= 0
          case 'HALF_UP':
          case 'HALF_EVEN': {
            const twice = 2n * (n - q * d < 0n ? q * d - n : n - q * d)
            return twice <= d
          }
        }
      },
    ),
    RUNS,
  )
  t.same(
    ['HALF_EVEN', 'HALF_UP', 'DOWN', 'UP', 'FLOOR', 'CEILING'].map((m) => divideRounded(5n, 2n, m as RoundingMode)),
    [2n, 3n, 2n, 3n, 2n, 3n],
    '2.5',
  )
  t.same(
    ['HALF_EVEN', 'HALF_UP', 'DOWN', 'UP', 'FLOOR', 'CEILING'].map((m) => divideRounded(-5n, 2n, m as RoundingMode)),
    [-2n, -3n, -2n, -3n, -3n, -2n],
    '-2.5',
  )
  t.equal(divideRounded(7n, 2n, 'HALF_EVEN'), 4n, '3.5 to even')
  t.throws(() => divideRounded(1n, 0n, 'DOWN'), RangeError)
})

t.test('fees: basis points and fractions are exact, rounded once', async (t) => {
  t.equal(feeFromBps(money('USD', 10_000n), 150n, 'HALF_EVEN').amountMinor, 150n, '1.5% of 100.00 is 1.50')
  t.equal(feeFromBps(money('USD', 333n), 50n, 'HALF_EVEN').amountMinor, 2n, '0.5% of 3.33 = 1.665 cents, to even: 2')
  t.equal(feeFromBps(money('USD', 333n), 50n, 'DOWN').amountMinor, 1n)
  t.equal(feeFromFraction(money('USDC', 1_000_000n), '0.015', 'HALF_UP').amountMinor, 15_000n, '1.5% of 1 USDC')
  t.equal(feeFromFraction(money('USD', 1n), '0.5', 'HALF_EVEN').amountMinor, 0n, 'half a cent to even: 0')
  t.equal(feeFromFraction(money('USD', 3n), '0.5', 'HALF_EVEN').amountMinor, 2n, '1.5 cents to even: 2')
  t.throws(() => feeFromFraction(money('USD', 1n), '1.5', 'DOWN'), RangeError)
  t.throws(() => feeFromFraction(money('USD', 1n), '0.1e1', 'DOWN'), RangeError)
  t.throws(() => feeFromBps(money('USD', 1n), 10_001n, 'DOWN'), RangeError)
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 10_000n }), (amount, bps) => {
      // A bps fee equals the same rate written as a fraction: one exact computation, two spellings.
      const fraction = bps === 10_000n ? '1' : `0.${bps.toString().padStart(4, '0')}`
      return (
        feeFromBps(money('USD', amount), bps, 'HALF_EVEN').amountMinor ===
        feeFromFraction(money('USD', amount), fraction, 'HALF_EVEN').amountMinor
      )
    }),
    RUNS,
  )
})

t.test('allocation never creates or loses a minor unit, and each share is within one of its exact part', async (t) => {
  const weights = fc.array(fc.bigInt({ min: 0n, max: 1_000_000n }), { minLength: 1, maxLength: 20 }).filter((w) => w.some((x) => x > 0n))
  fc.assert(
    fc.property(minorAmount, weights, (amount, w) => {
      const shares = allocate(money('USD', amount), w)
      const total = w.reduce((a, b) => a + b, 0n)
      if (shares.reduce((a, s) => a + s.amountMinor, 0n) !== amount) return false
      return shares.every((s, i) => {
        const exactTimesTotal = amount * w[i]!
        const diff = s.amountMinor * total - exactTimesTotal
        return (diff < 0n ? -diff : diff) < total
      })
    }),
    RUNS,
  )
  t.same(
    allocate(money('USD', 100n), [1n, 1n, 1n]).map((m) => m.amountMinor),
    [34n, 33n, 33n],
    'the leftover cent to the first',
  )
  t.same(
    allocate(money('USD', -100n), [1n, 1n, 1n]).map((m) => m.amountMinor),
    [-34n, -33n, -33n],
  )
  t.throws(() => allocate(money('USD', 1n), [0n, 0n]), RangeError)
  t.throws(() => allocate(money('USD', 1n), []), RangeError)
})

t.test('the amount bound: 10^12 major units per currency, inside the ledger; a balance ceiling of 10^15', async (t) => {
  t.same(
    ['USD', 'JPY', 'BHD', 'USDC', 'BTC', 'ETH'].map((c) => maxAmountMinor(c)),
    [10n ** 14n, 10n ** 12n, 10n ** 15n, 10n ** 18n, 10n ** 20n, 10n ** 30n],
  )
  t.equal(maxAmountMinor('XXX'), undefined, 'a currency the table does not know is left to its own check')
  t.equal(maxBalanceMinor('USD'), 10n ** 17n)
  t.equal(MAX_AMOUNT_MINOR_DIGITS, 31, "the longest bound, ETH's 10^30")
  t.equal(maxAmountMinor('ETH'), LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor, 'the largest amount is one ledger movement at most')
  t.same(amountBoundProblems([{ field: 'a', money: money('USD', 10n ** 14n) }]), [], 'the bound itself is allowed')
  t.match(amountBoundProblems([{ field: 'a', money: money('USD', 10n ** 14n + 1n) }]), [
    { field: 'a', message: 'must be at most 1000000000000.00 USD (100000000000000 minor units)', value: '100000000000001' },
  ])
  t.throws(() => assertAmountsWithinBound([{ field: 'fee', money: money('JPY', 10n ** 12n + 1n), sent: 'x' }]), {
    code: 'amount_too_large',
    details: [{ field: 'fee', value: 'x' }],
  })
  t.throws(() => assertBalanceWithinCeiling('acc_1', money('USD', 10n ** 17n + 1n)), { code: 'balance_limit_exceeded' })
  t.doesNotThrow(() => assertBalanceWithinCeiling('acc_1', money('USD', 10n ** 17n)))
})
