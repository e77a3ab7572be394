// How FX quote commands are handled: one stream per quote, created under a new fxq_ id.
import { type FxQuoteCommand, fxQuoteDecider } from '../../domain/fx-quote/decider.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

export const fxQuoteStreamOf = (quoteId: string): string => streams.fxQuote(quoteId)

export const fxQuoteCommands = {
  decider: fxQuoteDecider,
  streamOf: (command: FxQuoteCommand) => fxQuoteStreamOf(command.quoteId),
  startsStream: (command: FxQuoteCommand) => command.type === 'CreateFxQuote',
}

/** The binding routes handle quote commands through, answering with the quote's state. */
export const fxQuoteBinding = deciderBinding({ ...fxQuoteCommands, toResource: (state) => state })
