// A firm quote's prices: the spread withheld from the source amount as a fee, the rest converted at
// the provider's mid rate (the transfer pricing's own arithmetic, domain/transfer/pricing.ts), and
// the source amount held to the corridor's limits (422 fx_quote_amount_too_small / _too_large, with
// the limits and the request in the body).
import { DomainError, type ErrorExtra } from '../errors.js'
import { type CorridorLimits, limitsWire } from '../fx/corridorLimits.js'
import { FX_RATE_PLACES } from '../fx/indicativeRate.js'
import type { MidRate } from '../fx/liquidityProvider.js'
import type { FxPair } from '../fx/pair.js'
import { rationalToDecimal } from '../rates/referenceRates.js'
import { requireExponent } from '../shared/money/index.js'
import { price } from '../transfer/pricing.js'

export type QuoteAmount = { side: 'SOURCE' | 'DESTINATION'; minor: bigint }

export type QuotePrices = {
  sourceMinor: bigint
  destinationMinor: bigint
  feeMinor: bigint
  exchangeRate: string
  rate: string
  referenceRate: string
}

/** The spread as the fee fraction the pricing takes ("0.0025" for 25 bps); null for none. */
export const spreadFraction = (spreadBps: number): string | null => (spreadBps === 0 ? null : `0.${String(spreadBps).padStart(4, '0')}`)

/** What a not-executable answer carries on quote creation: the corridor's limits and the amount asked for. */
export function quoteRefusalExtra(pair: FxPair, limits: CorridorLimits | undefined, amount: QuoteAmount): ErrorExtra {
  const currency = amount.side === 'SOURCE' ? pair.source.currency : pair.destination.currency
  return {
    ...(limits ? { limits: limitsWire(limits) } : {}),
    requested: { currency, amount: amount.minor.toString(), side: amount.side },
  }
}

export function priceQuote(pair: FxPair, amount: QuoteAmount, mid: MidRate, spreadBps: number, limits: CorridorLimits): QuotePrices {
  const extra = quoteRefusalExtra(pair, limits, amount)
  const refusal = (code: string, message: string, hint: string) => () =>
    new DomainError('validation', code, message, [], { hint, ...extra })
  const tooSmall = refusal(
    'fx_quote_amount_too_small',
    `Below the corridor minimum of ${limits.minMinor} ${limits.sourceCurrency} minor units`,
    'Quote at least the corridor minimum (limits.min, minor units of the source currency)',
  )
  const tooLarge = refusal(
    'fx_quote_amount_too_large',
    `Above the corridor maximum of ${limits.maxMinor} ${limits.sourceCurrency} minor units`,
    'Split the amount into quotes of at most the corridor maximum (limits.max, minor units of the source currency)',
  )
  let priced
  try {
    priced = price({
      sourceCurrency: pair.source.currency,
      destinationCurrency: pair.destination.currency,
      amount,
      fee: { fixedMinor: 0n, percent: spreadFraction(spreadBps) },
      rate: { mid: mid.mid, provider: mid.provider },
    })
  } catch (error) {
    // Too small to deliver anything after the spread, or beyond any amount: the corridor's limits say which.
    if (error instanceof DomainError && error.kind === 'validation') throw amount.minor <= limits.minMinor ? tooSmall() : tooLarge()
    throw error
  }
  if (priced.sourceMinor < limits.minMinor) throw tooSmall()
  if (priced.sourceMinor > limits.maxMinor) throw tooLarge()
  const shift = requireExponent(pair.source.currency) - requireExponent(pair.destination.currency)
  const rate = {
    num: priced.destinationMinor * (shift > 0 ? 10n ** BigInt(shift) : 1n),
    den: priced.sourceMinor * (shift < 0 ? 10n ** BigInt(-shift) : 1n),
  }
  return {
    sourceMinor: priced.sourceMinor,
    destinationMinor: priced.destinationMinor,
    feeMinor: priced.feeMinor,
    exchangeRate: priced.exchangeRate,
    rate: rationalToDecimal(rate, FX_RATE_PLACES),
    referenceRate: rationalToDecimal(mid.mid, FX_RATE_PLACES),
  }
}
