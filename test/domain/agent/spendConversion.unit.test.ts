// An agent transfer's amount in its limits' currency: the same currency as is; another converted at
// the reference rate, rounded up (never undercounted), the rate recorded; no rate, no amount.
import t from 'tap'
import { inLimitsCurrency } from '../../../domain/agent/spendConversion.js'
import { referenceRate } from '../../../domain/rates/referenceRates.js'

t.test('the same currency: as is, no rate', async (t) => {
  t.same(inLimitsCurrency({ currency: 'USD', amountMinor: 1234n }, 'USD'), {
    amountMinor: 1234n,
    conversion: { currency: 'USD', amountMinor: '1234', rate: null, rateSource: null },
  })
})

t.test('another currency: the reference rate, minor to minor, rounded up', async (t) => {
  const eur = inLimitsCurrency({ currency: 'USD', amountMinor: 1000n }, 'EUR')
  const rate = referenceRate('USD', 'EUR')!
  const exact = (1000n * rate.num) / rate.den
  t.ok(eur, 'USD to EUR has a rate')
  t.ok(eur!.amountMinor === exact || eur!.amountMinor === exact + 1n, `10.00 USD is ${eur!.amountMinor} EUR cents`)
  t.match(eur!.conversion, { currency: 'USD', amountMinor: '1000', rate: /^\d+(\.\d+)?$/, rateSource: 'SANDBOX_REFERENCE' })
  const usdc = inLimitsCurrency({ currency: 'USDC', amountMinor: 1_000_001n }, 'USD')!
  t.equal(usdc.amountMinor, 101n, '1.000001 USDC counts as 1.01 USD (up, from 6 places to 2)')
  const tiny = inLimitsCurrency({ currency: 'USDC', amountMinor: 1n }, 'USD')!
  t.equal(tiny.amountMinor, 1n, 'the smallest amount still counts one cent')
})

t.test('no rate: no amount', async (t) => {
  t.equal(inLimitsCurrency({ currency: 'XYZ', amountMinor: 1n }, 'USD'), undefined)
})
