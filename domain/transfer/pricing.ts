// A transfer's amounts: the developer fee, withheld from the source amount (Bridge's model), and
// the conversion at the reference rate, in integer minor units with named rounding:
//   fee = developerFeeFixed + developerFeePercent × source, the percent part rounded HALF_UP
//   destination = floor((source − fee) × rate), converted between the two exponents
// An amount given on the destination side is met exactly with the smallest source that reaches it.
// exchangeRate is destination ÷ source, rounded UP at 31 places (trailing zeros dropped), so
// floor(source × exchangeRate) equals the destination exactly for any amount the API takes (< 10^31).
import { invalid } from '../errors.js'
import { type Rational, REFERENCE_RATE_PROVIDER, rationalToDecimal, referenceRate } from '../rates/referenceRates.js'
import { divideRounded, feeFromFraction, requireExponent } from '../shared/money/index.js'

export const PRICING_LIMITS = {
  /** Fraction digits of exchangeRate: more than an amount's digits (30), so it is exact for every amount. */
  exchangeRatePlaces: 31,
  referenceRatePlaces: 10,
  /** Binary search bound for a destination-side amount: 10^30 minor units. */
  maxAmountMinor: 10n ** 30n,
} as const

export type FeeTerms = { fixedMinor: bigint; percent: string | null }

export type Pricing = {
  sourceMinor: bigint
  destinationMinor: bigint
  feeMinor: bigint
  exchangeRate: string
  referenceRate: string
  referenceProvider: string
}

export function feeFor(sourceMinor: bigint, currency: string, terms: FeeTerms): bigint {
  const percentPart =
    terms.percent === null ? 0n : feeFromFraction({ currency, amountMinor: sourceMinor }, terms.percent, 'HALF_UP').amountMinor
  return terms.fixedMinor + percentPart
}

function convert(netMinor: bigint, rate: Rational, sourceCurrency: string, destinationCurrency: string): bigint {
  const shift = requireExponent(destinationCurrency) - requireExponent(sourceCurrency)
  const num = netMinor * rate.num * (shift > 0 ? 10n ** BigInt(shift) : 1n)
  const den = rate.den * (shift < 0 ? 10n ** BigInt(-shift) : 1n)
  return divideRounded(num, den, 'FLOOR')
}

/** The smallest n in [lo, hi] with ok(n), for ok monotone (false then true); undefined when none. */
function smallest(lo: bigint, hi: bigint, ok: (n: bigint) => boolean): bigint | undefined {
  if (!ok(hi)) return undefined
  while (lo < hi) {
    const mid = (lo + hi) / 2n
    if (ok(mid)) hi = mid
    else lo = mid + 1n
  }
  return lo
}

export type PriceRequest = {
  sourceCurrency: string
  destinationCurrency: string
  /** Exactly one side's amount. */
  amount: { side: 'SOURCE' | 'DESTINATION'; minor: bigint }
  fee: FeeTerms
  /** The mid rate to convert at (an FX quote's, from its liquidity provider); the reference table's when absent. */
  rate?: { mid: Rational; provider: string }
}

export function price(request: PriceRequest): Pricing {
  const { sourceCurrency: from, destinationCurrency: to } = request
  const rate = request.rate?.mid ?? referenceRate(from, to)
  if (!rate)
    throw invalid('route_not_supported', `No rate from ${from} to ${to}`, [
      { field: 'destination.currency', message: `${from} cannot be converted to ${to}`, value: to },
    ])
  const fee = (source: bigint) => feeFor(source, from, request.fee)
  const destinationOf = (source: bigint) => {
    const net = source - fee(source)
    return net > 0n ? convert(net, rate, from, to) : 0n
  }
  let sourceMinor: bigint
  let destinationMinor: bigint
  if (request.amount.side === 'SOURCE') {
    sourceMinor = request.amount.minor
    destinationMinor = destinationOf(sourceMinor)
  } else {
    destinationMinor = request.amount.minor
    const found = smallest(1n, PRICING_LIMITS.maxAmountMinor, (s) => destinationOf(s) >= destinationMinor)
    if (found === undefined && request.fee.percent !== null && Number(request.fee.percent) >= 1)
      throw invalid('developer_fee_exceeds_amount', 'A developer fee of 100% leaves nothing to deliver', [
        { field: 'developerFeePercent', message: 'must be below 1 to deliver an amount', value: request.fee.percent },
      ])
    if (found === undefined)
      throw invalid('invalid_amount', 'The destination amount is out of range', [{ field: 'destinationAmount', message: 'too large' }])
    sourceMinor = found
  }
  const feeMinor = fee(sourceMinor)
  if (feeMinor >= sourceMinor)
    throw invalid('developer_fee_exceeds_amount', `The developer fee ${feeMinor} would take the whole amount ${sourceMinor}`, [
      { field: 'developerFeeFixed', message: 'the fee must leave a positive amount to send', value: feeMinor.toString() },
    ])
  if (destinationMinor <= 0n)
    throw invalid('amount_too_small', 'The amount converts to nothing at the destination', [
      { field: 'sourceAmount', message: `too small to deliver any ${to}`, value: sourceMinor.toString() },
    ])
  const exchange = divideRounded(destinationMinor * 10n ** BigInt(PRICING_LIMITS.exchangeRatePlaces), sourceMinor, 'CEILING')
  return {
    sourceMinor,
    destinationMinor,
    feeMinor,
    exchangeRate: rationalToDecimal(
      { num: exchange, den: 10n ** BigInt(PRICING_LIMITS.exchangeRatePlaces) },
      PRICING_LIMITS.exchangeRatePlaces,
    ),
    referenceRate: rationalToDecimal(rate, PRICING_LIMITS.referenceRatePlaces),
    referenceProvider: request.rate?.provider ?? REFERENCE_RATE_PROVIDER,
  }
}

/** A developer fee percent (a JSON number, a fraction) as exact decimal text; null for none; 422 past 12 places. */
export function feePercentText(percent: number | undefined, field = 'developerFeePercent'): string | null {
  if (percent === undefined || percent === 0) return null
  // A JSON number as its shortest decimal text ("0.015"); exponent forms (1e-7) are written out.
  const text = percent.toFixed(12).replace(/0+$/, '').replace(/\.$/, '')
  if (Number(text) !== percent)
    throw invalid('invalid_fee_percent', 'developerFeePercent has more than 12 decimal places', [
      { field, message: 'at most 12 decimal places', value: percent },
    ])
  return text
}
