// A quote as the API shows it (POST and GET /v1/fx/quotes): both amounts and the spread as money
// objects, the rate all-in both ways of counting (major units and minor units), the reference rate
// with its provider and asOf, and the status. A pending quote past expiresAt reads as EXPIRED even
// before its timer has fired.
import { z } from 'zod'
import { fxSideResource, sideResource } from '../fx/resource.js'
import { checkPair } from '../fx/pair.js'
import { moneyWire, toWire } from '../shared/money/index.js'
import type { FxQuote } from './decider.js'

export const FX_QUOTE_STATUSES = ['PENDING', 'ACCEPTED', 'EXPIRED'] as const

export const fxQuoteResource = z.object({
  id: z.string().describe('Quote id, prefix fxq_'),
  organizationId: z.string(),
  customerId: z.string(),
  source: fxSideResource,
  destination: fxSideResource,
  sourceAmount: moneyWire.describe('What the customer sends'),
  destinationAmount: moneyWire.describe('What is delivered'),
  fee: moneyWire.describe('The spread, withheld from the source amount'),
  spreadBps: z.number().int(),
  rate: z.string().describe('Destination major units per source major unit, all-in (fee included)'),
  exchangeRate: z
    .string()
    .describe('Destination minor units per source minor unit, all-in: destinationAmount = sourceAmount × exchangeRate'),
  referenceRate: z.string().describe('Mid-market rate, destination major units per source major unit'),
  referenceProvider: z.string(),
  referenceRateAsOf: z.string(),
  amountSide: z.enum(['SOURCE', 'DESTINATION']).describe('The side the amount was given on'),
  status: z.enum(FX_QUOTE_STATUSES).describe('PENDING until accepted by a trade (ACCEPTED) or past expiresAt (EXPIRED)'),
  expiresAt: z.string(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
  tradeId: z.string().nullable().describe('The trade that accepted it'),
  expiredAt: z.string().nullable(),
})
export type FxQuoteResource = z.infer<typeof fxQuoteResource>

export type QuoteOutcome =
  { status: 'PENDING' } | { status: 'ACCEPTED'; tradeId: string; acceptedAt: string } | { status: 'EXPIRED'; expiredAt: string }

export function toQuoteResource(quote: FxQuote, outcome: QuoteOutcome, now: string): FxQuoteResource {
  const pair = checkPair(quote.pair)
  const lapsed = outcome.status === 'PENDING' && now >= quote.expiresAt
  return {
    id: quote.quoteId,
    organizationId: quote.organizationId,
    customerId: quote.customerId,
    source: sideResource(pair.source),
    destination: sideResource(pair.destination),
    sourceAmount: toWire({ currency: pair.source.currency, amountMinor: BigInt(quote.sourceAmountMinor) }),
    destinationAmount: toWire({ currency: pair.destination.currency, amountMinor: BigInt(quote.destinationAmountMinor) }),
    fee: toWire({ currency: pair.source.currency, amountMinor: BigInt(quote.feeMinor) }),
    spreadBps: quote.spreadBps,
    rate: quote.rate,
    exchangeRate: quote.exchangeRate,
    referenceRate: quote.referenceRate,
    referenceProvider: quote.referenceProvider,
    referenceRateAsOf: quote.referenceRateAsOf,
    amountSide: quote.amountSide,
    status: lapsed ? 'EXPIRED' : outcome.status,
    expiresAt: quote.expiresAt,
    createdAt: quote.createdAt,
    acceptedAt: outcome.status === 'ACCEPTED' ? outcome.acceptedAt : null,
    tradeId: outcome.status === 'ACCEPTED' ? outcome.tradeId : null,
    expiredAt: outcome.status === 'EXPIRED' ? outcome.expiredAt : lapsed ? quote.expiresAt : null,
  }
}
