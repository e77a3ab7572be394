// What an FX trade's commands read from other streams: the trade itself (404 for another
// organization's or another customer's under X-On-Behalf-Of), and what a slot's holder has become.
import { notFound } from '../../domain/errors.js'
import { type OpenFxTrade, isTerminal } from '../../domain/fx-trade/decider.js'
import type { HolderFact } from '../../domain/fx-trade-slot/decider.js'
import { fxTradeDecider } from '../../domain/fx-trade/decider.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { fxTradeStreamOf } from './tradeCommands.js'

const TRADE_ID = /^tfr_[0-9a-z]{26}$/

export async function loadTrade(commands: Commands, organizationId: string, tradeId: string, onBehalfOf?: string): Promise<OpenFxTrade> {
  if (!TRADE_ID.test(tradeId)) throw notFound('Trade', tradeId)
  const { state } = await commands.load(fxTradeDecider, fxTradeStreamOf(tradeId))
  if (state.status === 'none' || state.trade.organizationId !== organizationId) throw notFound('Trade', tradeId)
  if (onBehalfOf !== undefined && state.trade.customerId !== onBehalfOf) throw notFound('Trade', tradeId)
  return state
}

/** The holder's trade as it stands: ACTIVE, ENDED, or MISSING (claimed, never created). */
export async function holderFact(commands: Commands, tradeId: string): Promise<HolderFact> {
  const { state } = await commands.load(fxTradeDecider, fxTradeStreamOf(tradeId))
  if (state.status === 'none') return { tradeId, trade: 'MISSING' }
  return { tradeId, trade: isTerminal(state.status) ? 'ENDED' : 'ACTIVE' }
}
