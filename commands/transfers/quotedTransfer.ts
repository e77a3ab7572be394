// A transfer created from a firm FX quote (`quoteId`): the quote is read with the other facts (404
// for one the organization does not have; 410 once accepted or expired) and consumed when the
// transfer is created, under the same rules as a trade: accepted once, by this transfer's id.
import type { FastifyRequest } from 'fastify'
import { type FxQuote, quoteExpired, quoteNotPending } from '../../domain/fx-quote/decider.js'
import { fxQuoteBinding } from '../fx-quotes/quoteCommands.js'
import { loadOrgQuote } from '../fx-quotes/quoteFacts.js'
import type { CommandRuntime, Commands } from '../runtime/commandRuntime.js'

/** The pending quote `quoteId` names, for pricing (its expiry is checked again when it is consumed). */
export async function loadPendingQuote(commands: Commands, organizationId: string, quoteId: string, now: Date): Promise<FxQuote> {
  const state = await loadOrgQuote(commands, organizationId, quoteId)
  if (state.status === 'ACCEPTED') throw quoteNotPending(quoteId, state.tradeId)
  if (state.status === 'EXPIRED' || now.toISOString() >= state.quote.expiresAt) throw quoteExpired(quoteId, state.quote.expiresAt)
  return state.quote
}

/** Accepts the quote for the transfer about to be created (410 when another accept won, or it expired meanwhile). */
export async function consumeQuote(runtime: CommandRuntime, request: FastifyRequest, quote: FxQuote, transferId: string, now: Date) {
  await runtime.bind(fxQuoteBinding).handleToState(request, {
    type: 'AcceptFxQuote',
    organizationId: quote.organizationId,
    quoteId: quote.quoteId,
    tradeId: transferId,
    now: now.toISOString(),
  })
}
