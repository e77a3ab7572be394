// The rate arithmetic: the spread taken from the mid-market rate, exactly, both ways; and the
// corridor limits in minor units of the source, rounded so both are amounts the corridor takes.
import t from 'tap'
import fc from 'fast-check'
import { corridorLimits, minorToUsdCents, usdToMinor } from '../../../domain/fx/corridorLimits.js'
import { applySpread, inverse, rateFigures } from '../../../domain/fx/indicativeRate.js'
import { referenceRate } from '../../../domain/rates/referenceRates.js'

t.test('the figures of a rate', async (t) => {
  t.same(rateFigures(referenceRate('USDC', 'EUR')!, 25), {
    rate: '0.9177',
    inverseRate: '1.089680723548',
    referenceRate: '0.92',
    inverseReferenceRate: '1.086956521739',
  })
  t.same(rateFigures(referenceRate('USDC', 'USDT')!, 0), { rate: '1', inverseRate: '1', referenceRate: '1', inverseReferenceRate: '1' })
  t.equal(rateFigures(referenceRate('USDC', 'VND')!, 100).rate, '25146', '25 400 less 1%')
  t.throws(() => applySpread({ num: 1n, den: 1n }, 1001), RangeError, 'past 10%')
  t.throws(() => applySpread({ num: 1n, den: 1n }, 2.5), RangeError, 'whole basis points')
})

t.test('the spread never raises the rate, and the inverse is exact', async (t) => {
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 1000 }),
        (num, den, bps) => {
          const offered = applySpread({ num, den }, bps)
          const product = { num: offered.num * inverse(offered).num, den: offered.den * inverse(offered).den }
          return offered.num * den <= num * offered.den && product.num === product.den
        },
      ),
      { seed: 20261128 },
    ),
  )
})

t.test('corridor limits in minor units of the source', async (t) => {
  t.same(corridorLimits('USDC', 'sandbox'), { sourceCurrency: 'USDC', minMinor: 1_000_000n, maxMinor: 10_000_000_000n })
  t.same(corridorLimits('EUR', 'sandbox'), { sourceCurrency: 'EUR', minMinor: 92n, maxMinor: 920_000n })
  t.same(corridorLimits('JPY', 'production'), { sourceCurrency: 'JPY', minMinor: 1_500n, maxMinor: 150_000_000n })
  t.equal(usdToMinor(1n, 'KWD', 'CEILING'), 307n, 'three decimals')
  t.equal(usdToMinor(1n, 'BHD', 'FLOOR'), 376n)
  t.equal(minorToUsdCents(920_000n, 'EUR'), 1_000_000n, 'back to cents')
  t.equal(minorToUsdCents(1n, 'USDC'), 0n, 'rounded down')
})
