// A transfer created from a firm FX quote (`quoteId`): the quote is read with the other facts (404
// for one the organization does not have; 410 once accepted or expired) and consumed when the
// transfer is created, under the same rules as a trade: accepted once, by this transfer's id.
import { DomainError, notFound } from '../../domain/errors.js'
import { type FxQuote, fxQuoteDecider } from '../../domain/fx-quote/decider.js'
import type { FastifyRequest } from 'fastify'
import { fxQuoteCommands, fxQuoteStreamOf } from '../fx-quotes/quoteCommands.js'
import { type CommandRuntime, type Commands, deciderBinding } from '../runtime/commandRuntime.js'

const gone = (code: string, message: string) => new DomainError('gone', code, message)
const quoteBinding = deciderBinding({ ...fxQuoteCommands, toResource: (state) => state })

/** The pending quote `quoteId` names, for pricing (its expiry is checked again when it is consumed). */
export async function loadPendingQuote(commands: Commands, organizationId: string, quoteId: string, now: Date): Promise<FxQuote> {
  if (!/^fxq_[0-9a-z]{26}$/.test(quoteId)) throw notFound('Quote', quoteId)
  const { state } = await commands.load(fxQuoteDecider, fxQuoteStreamOf(quoteId))
  if (state.status === 'none' || state.quote.organizationId !== organizationId) throw notFound('Quote', quoteId)
  if (state.status === 'ACCEPTED') throw gone('fx_quote_not_pending', `Quote ${quoteId} was already accepted by ${state.tradeId}`)
  if (state.status === 'EXPIRED' || now.toISOString() >= state.quote.expiresAt)
    throw gone('fx_quote_expired', `Quote ${quoteId} expired at ${state.quote.expiresAt}; ask for a new quote`)
  return state.quote
}

/** Accepts the quote for the transfer about to be created (410 when another accept won, or it expired meanwhile). */
export async function consumeQuote(runtime: CommandRuntime, request: FastifyRequest, quote: FxQuote, transferId: string, now: Date) {
  const quotes = runtime.bind(quoteBinding)
  await quotes.handleToState(request, {
    type: 'AcceptFxQuote',
    organizationId: quote.organizationId,
    quoteId: quote.quoteId,
    tradeId: transferId,
    now: now.toISOString(),
  })
}
