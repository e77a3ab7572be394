// The funding fee, exactly: per started hour since the draw (at least one), at a decimal bps rate
// read exactly, capped at feeCapHours, rounded once, half up, to the minor unit. Checked at the hour
// boundaries and against an independent rational model over random draws.
import t from 'tap'
import fc from 'fast-check'
import { accruedFee, parseFeeBps, startedHours } from '../../domain/liquidity-facility/fee.js'
import { HOUR_MS, LIQUIDITY_LIMITS } from '../../domain/liquidity-facility/limits.js'

const DRAWN = '2026-11-24T08:00:00.000Z'
const at = (ms: number) => new Date(Date.parse(DRAWN) + ms).toISOString()
const draw = (principalMinor: bigint, fundingFeeBpsPerHour: string, feeCapHours: number) => ({
  principalMinor,
  drawnAt: DRAWN,
  terms: { fundingFeeBpsPerHour, feeCapHours },
})

t.test('started hours: at least one, each started hour whole', async (t) => {
  t.equal(startedHours(DRAWN, at(0)), 1, 'at the draw: one hour')
  t.equal(startedHours(DRAWN, at(1)), 1)
  t.equal(startedHours(DRAWN, at(HOUR_MS)), 1, 'exactly one hour later: still one')
  t.equal(startedHours(DRAWN, at(HOUR_MS + 1)), 2, 'one millisecond past: two')
  t.equal(startedHours(DRAWN, at(5 * HOUR_MS)), 5)
  t.equal(startedHours(DRAWN, at(-60_000)), 1, 'a clock behind the draw still counts one')
})

t.test('the fee at hour boundaries, with a fractional rate and the cap', async (t) => {
  // 1 000 USDC (6 decimals) at 1.5 bps an hour: 150 000 minor units (0.15 USDC) per hour.
  const d = draw(1_000_000_000n, '1.5', 3)
  t.equal(accruedFee(d, at(0)), 150_000n)
  t.equal(accruedFee(d, at(HOUR_MS)), 150_000n)
  t.equal(accruedFee(d, at(HOUR_MS + 1)), 300_000n)
  t.equal(accruedFee(d, at(3 * HOUR_MS)), 450_000n)
  t.equal(accruedFee(d, at(3 * HOUR_MS + 1)), 450_000n, 'capped at 3 hours')
  t.equal(accruedFee(d, at(100 * HOUR_MS)), 450_000n)
})

t.test('rounding is half up, once, at the end', async (t) => {
  // 1 minor unit x 5 000 bps = 0.5: rounds up to 1; x 4 999 bps = 0.4999: down to 0.
  t.equal(accruedFee(draw(1n, '5000', 1), at(0)), 1n)
  t.equal(accruedFee(draw(1n, '4999', 1), at(0)), 0n)
  // 10 000 x 0.5 bps x 3 h = 1.5: 2 (half up), where rounding per hour (0.5 -> 1 each) would give 3.
  t.equal(accruedFee(draw(10_000n, '0.5', 5), at(3 * HOUR_MS)), 2n)
  t.equal(accruedFee(draw(1_000n, '0', 5), at(3 * HOUR_MS)), 0n, 'a zero rate costs nothing')
})

t.test('rates are exact decimals with at most 4 places, within the maximum', async (t) => {
  t.equal(parseFeeBps('1.5'), 15_000n)
  t.equal(parseFeeBps('0.0001'), 1n)
  t.equal(parseFeeBps('10000'), 100_000_000n)
  for (const bad of ['0.00001', '10000.0001', '-1', '1e2', '1,5', '', ' 1', 'NaN'])
    t.equal(parseFeeBps(bad), undefined, `${JSON.stringify(bad)} refused`)
})

const scale = 10n ** BigInt(LIQUIDITY_LIMITS.feeBpsFractionDigits)
const asDecimal = (scaled: bigint) => {
  const whole = scaled / scale
  const fraction = (scaled % scale).toString().padStart(LIQUIDITY_LIMITS.feeBpsFractionDigits, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

t.test('property: the fee is the rational fee rounded half up, monotone in time, constant past the cap', async (t) => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 1n, max: 10n ** 20n }),
      fc.bigInt({ min: 0n, max: LIQUIDITY_LIMITS.maxFeeBpsPerHour * scale }),
      fc.integer({ min: 1, max: LIQUIDITY_LIMITS.maxFeeCapHours }),
      fc.integer({ min: 0, max: 10_000 * HOUR_MS }),
      fc.integer({ min: 0, max: 10 * HOUR_MS }),
      (principal, bpsScaled, cap, elapsedMs, laterMs) => {
        const d = draw(principal, asDecimal(bpsScaled), cap)
        const fee = accruedFee(d, at(elapsedMs))
        // Independent model: hours = min(max(1, ceil(ms / h)), cap); fee = floor((2N + D) / 2D).
        const hours = BigInt(Math.min(Math.max(1, Math.ceil(elapsedMs / HOUR_MS)), cap))
        const n = principal * bpsScaled * hours
        const den = 10_000n * scale
        if (fee !== (2n * n + den) / (2n * den)) return false
        if (accruedFee(d, at(elapsedMs + laterMs)) < fee) return false
        const capped = accruedFee(d, at(cap * HOUR_MS))
        return accruedFee(d, at(cap * HOUR_MS + 1 + laterMs)) === capped
      },
    ),
    { seed: 20261124, numRuns: 2_000 },
  )
  t.pass('2 000 random draws agree with the model')
})
