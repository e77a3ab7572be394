// What other commands read of an FX quote: the quote of the calling organization, as it stands
// (404 for an id the organization does not have, whatever its shape).
import { notFound } from '../../domain/errors.js'
import { type FxQuoteState, fxQuoteDecider } from '../../domain/fx-quote/decider.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { fxQuoteStreamOf } from './quoteCommands.js'

export async function loadOrgQuote(
  commands: Commands,
  organizationId: string,
  quoteId: string,
): Promise<Exclude<FxQuoteState, { status: 'none' }>> {
  if (!/^fxq_[0-9a-z]{26}$/.test(quoteId)) throw notFound('Quote', quoteId)
  const { state } = await commands.load(fxQuoteDecider, fxQuoteStreamOf(quoteId))
  if (state.status === 'none' || state.quote.organizationId !== organizationId) throw notFound('Quote', quoteId)
  return state
}
