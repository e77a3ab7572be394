// The FX quote aggregate: one stream per quote (fxq_). Created firm for FX_QUOTE_LIMITS.validForMs,
// accepted by exactly one trade (410 once accepted or expired: the spec's Gone), expired by the
// scheduler at expiresAt (a no-op once accepted).
import type { z } from 'zod'
import type { Decider } from '../decider.js'
import { DomainError, assertInvariant, notFound } from '../errors.js'
import type { CorridorLimits } from '../fx/corridorLimits.js'
import type { MidRate } from '../fx/liquidityProvider.js'
import { type FxPair, flatPair } from '../fx/pair.js'
import type { FxQuoteCreated, FxQuoteEvent } from './events.js'
import { type QuoteAmount, priceQuote } from './priceQuote.js'

export const FX_QUOTE_LIMITS = {
  /** How long a quote is firm (Circle-like: seconds to a minute; the trade's deposit deadline is its own). */
  validForMs: 60_000,
} as const

export type FxQuote = z.infer<typeof FxQuoteCreated>

export type FxQuoteState =
  | { status: 'none' }
  | { status: 'PENDING'; quote: FxQuote }
  | { status: 'ACCEPTED'; quote: FxQuote; tradeId: string; acceptedAt: string }
  | { status: 'EXPIRED'; quote: FxQuote; expiredAt: string }

type Ids = { organizationId: string; quoteId: string }

export type FxQuoteCommand =
  | ({
      type: 'CreateFxQuote'
      customerId: string
      pair: FxPair
      amount: QuoteAmount
      mid: MidRate
      spreadBps: number
      limits: CorridorLimits
      now: string
    } & Ids)
  | ({ type: 'AcceptFxQuote'; tradeId: string; now: string } & Ids)
  | ({ type: 'ExpireFxQuote'; now: string } & Ids)

/** 410: the quote was accepted already, by a trade or a quoted transfer (`acceptedBy`, its id). */
export const quoteNotPending = (quoteId: string, acceptedBy: string) =>
  new DomainError('gone', 'fx_quote_not_pending', `Quote ${quoteId} was already accepted by ${acceptedBy}`)

/** 410: the quote is past its expiresAt. */
export const quoteExpired = (quoteId: string, expiresAt: string) =>
  new DomainError('gone', 'fx_quote_expired', `Quote ${quoteId} expired at ${expiresAt}; ask for a new quote`)

function decideCreate(command: Extract<FxQuoteCommand, { type: 'CreateFxQuote' }>): FxQuoteEvent[] {
  const prices = priceQuote(command.pair, command.amount, command.mid, command.spreadBps, command.limits)
  return [
    {
      type: 'FxQuoteCreated',
      data: {
        quoteId: command.quoteId,
        organizationId: command.organizationId,
        customerId: command.customerId,
        pair: flatPair(command.pair),
        amountSide: command.amount.side,
        sourceAmountMinor: prices.sourceMinor.toString(),
        destinationAmountMinor: prices.destinationMinor.toString(),
        feeMinor: prices.feeMinor.toString(),
        spreadBps: command.spreadBps,
        exchangeRate: prices.exchangeRate,
        rate: prices.rate,
        referenceRate: prices.referenceRate,
        referenceProvider: command.mid.provider,
        referenceRateAsOf: command.mid.asOf,
        expiresAt: new Date(Date.parse(command.now) + FX_QUOTE_LIMITS.validForMs).toISOString(),
        createdAt: command.now,
      },
    },
  ]
}

export const fxQuoteDecider: Decider<FxQuoteState, FxQuoteCommand, FxQuoteEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'CreateFxQuote') {
      if (state.status !== 'none') throw new DomainError('conflict', 'resource_already_exists', `Quote ${command.quoteId} already exists`)
      return decideCreate(command)
    }
    if (state.status === 'none') throw notFound('Quote', command.quoteId)
    const { quoteId, organizationId } = command
    switch (command.type) {
      case 'AcceptFxQuote':
        if (state.status === 'ACCEPTED') throw quoteNotPending(quoteId, state.tradeId)
        if (state.status === 'EXPIRED' || command.now >= state.quote.expiresAt) throw quoteExpired(quoteId, state.quote.expiresAt)
        return [{ type: 'FxQuoteAccepted', data: { quoteId, organizationId, tradeId: command.tradeId, acceptedAt: command.now } }]
      case 'ExpireFxQuote':
        // The timer fires once its time came; a quote accepted meanwhile stays accepted.
        if (state.status !== 'PENDING' || command.now < state.quote.expiresAt) return []
        return [
          {
            type: 'FxQuoteExpired',
            data: { quoteId, organizationId, customerId: state.quote.customerId, expiresAt: state.quote.expiresAt, expiredAt: command.now },
          },
        ]
    }
  },

  evolve(state, event) {
    if (event.type === 'FxQuoteCreated') return { status: 'PENDING', quote: event.data }
    assertInvariant(state.status === 'PENDING', `${event.type} on a quote that is ${state.status}`)
    switch (event.type) {
      case 'FxQuoteAccepted':
        return { status: 'ACCEPTED', quote: state.quote, tradeId: event.data.tradeId, acceptedAt: event.data.acceptedAt }
      case 'FxQuoteExpired':
        return { status: 'EXPIRED', quote: state.quote, expiredAt: event.data.expiredAt }
    }
  },
}
