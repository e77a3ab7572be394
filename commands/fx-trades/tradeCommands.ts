// How FX trade commands are handled: one stream per trade (its id derived from its quote's, so a
// retried accept finds the trade it started), and one stream of trade slots per customer.
import { type FxTradeCommand, fxTradeDecider } from '../../domain/fx-trade/decider.js'
import { type FxTradeSlotCommand, fxTradeSlotDecider, fxTradeSlotsIdOf } from '../../domain/fx-trade-slot/decider.js'
import { streams } from '../../events/streams.js'
import { deciderBinding } from '../runtime/commandRuntime.js'

/** A quote is accepted by one trade at most: the trade's id is the quote's with the transfer prefix. */
export const tradeIdOfQuote = (quoteId: string): string => `tfr_${quoteId.slice(quoteId.indexOf('_') + 1)}`

export const fxTradeStreamOf = (tradeId: string): string => streams.fxTrade(tradeId)
export const fxTradeSlotsStreamOf = (customerId: string): string => streams.fxTradeSlots(fxTradeSlotsIdOf(customerId))

export const fxTradeCommands = {
  decider: fxTradeDecider,
  streamOf: (command: FxTradeCommand) => fxTradeStreamOf(command.tradeId),
}

export const fxTradeSlotCommands = {
  decider: fxTradeSlotDecider,
  streamOf: (command: FxTradeSlotCommand) => fxTradeSlotsStreamOf(command.customerId),
}

/** The bindings routes handle trade and slot commands through, answering with the state. */
export const fxTradeBinding = deciderBinding({ ...fxTradeCommands, toResource: (state) => state })
export const fxTradeSlotBinding = deciderBinding({ ...fxTradeSlotCommands, toResource: (state) => state })
