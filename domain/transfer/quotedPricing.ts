// A transfer priced by a firm FX quote (`quoteId` on POST /v1/transfers): the quote's amounts and
// rates instead of the reference table's, once the quote is found to fit the transfer. It must be
// the sender's, for the same two currencies and, for a side that is not a balance account, the same
// network or rail; an amount given in the body must be the quote's on that side; no developer fee
// (the quote's spread is the price). The quote is consumed by the command side (410 once taken or
// expired), as a trade consumes it.
import { type ErrorDetail, invalid } from '../errors.js'
import type { FxQuote } from '../fx-quote/decider.js'
import type { CreateTransferBody } from './createTransferBody.js'
import type { Pricing } from './pricing.js'
import { type RouteSide, paymentRailOf } from './route.js'

function mismatches(quote: FxQuote, senderId: string, body: CreateTransferBody, source: RouteSide, destination: RouteSide): ErrorDetail[] {
  const p = quote.pair
  const problems: ErrorDetail[] = []
  const side = (field: string, s: RouteSide, currency: string, place: string | undefined) => {
    if (s.currency !== currency) problems.push({ field: `${field}.currency`, message: `the quote is for ${currency}`, value: s.currency })
    else if (s.kind !== 'BALANCE' && place !== undefined && paymentRailOf(s) !== place)
      problems.push({ field: `${field}.paymentRail`, message: `the quote is for ${place}`, value: paymentRailOf(s) })
  }
  if (quote.customerId !== senderId)
    problems.push({ field: 'quoteId', message: `the quote is customer ${quote.customerId}'s`, value: senderId })
  side('source', source, p.sourceCurrency, p.sourceNetwork ?? p.sourceRail)
  side('destination', destination, p.destinationCurrency, p.destinationNetwork ?? p.destinationRail)
  if (body.sourceAmount !== undefined && body.sourceAmount !== quote.sourceAmountMinor)
    problems.push({ field: 'sourceAmount', message: `the quote's is ${quote.sourceAmountMinor} (or omit it)`, value: body.sourceAmount })
  if (body.destinationAmount !== undefined && body.destinationAmount !== quote.destinationAmountMinor)
    problems.push({
      field: 'destinationAmount',
      message: `the quote's is ${quote.destinationAmountMinor} (or omit it)`,
      value: body.destinationAmount,
    })
  if ((body.developerFeeFixed !== undefined && body.developerFeeFixed !== '0') || (body.developerFeePercent ?? 0) !== 0)
    problems.push({ field: 'developerFeeFixed', message: 'a quoted transfer carries no developer fee: the quote’s spread is its price' })
  return problems
}

/** The quote's prices for this transfer, or 422 quote_mismatch naming every field that does not fit it. */
export function quotedPricing(
  quote: FxQuote,
  senderId: string,
  body: CreateTransferBody,
  source: RouteSide,
  destination: RouteSide,
): Pricing {
  const problems = mismatches(quote, senderId, body, source, destination)
  if (problems.length > 0) throw invalid('quote_mismatch', `Quote ${quote.quoteId} does not fit this transfer`, problems)
  return {
    sourceMinor: BigInt(quote.sourceAmountMinor),
    destinationMinor: BigInt(quote.destinationAmountMinor),
    feeMinor: 0n,
    exchangeRate: quote.exchangeRate,
    referenceRate: quote.referenceRate,
    referenceProvider: quote.referenceProvider,
  }
}
