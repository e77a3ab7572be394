// An FX trade is also a transfer: after each event of a trade, its transfer view (the transfer of
// the same id, flow FX) is brought to where the trade stands (domain/transfer/fxTradeMirror.ts).
// The mirror decides from the trade's current state, so a replay, a crash between the trade's event
// and this step, or steps run out of order add nothing; the command's id is derived from the event.
// POST /v1/fx/trades creates the view itself (a read right after it finds the transfer); this step
// is what moves it on, and what creates it should that request have died in between.
import { fxTradeDecider } from '../../domain/fx-trade/decider.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { streams } from '../../events/streams.js'
import { fxTradeStreamOf } from '../fx-trades/tradeCommands.js'
import { drawPlanEntropy } from '../transfers/newTransfer.js'
import type { Workflow } from './workflow.js'

export const fxTradeTransfers: Workflow = {
  name: 'fx_trade_transfers',
  handles: new Set([
    'FxTradeCreated',
    'FxTradeWalletApproved',
    'FxTradeConverted',
    'FxTradePayoutRequested',
    'FxTradeCompleted',
    'FxTradeExpired',
    'FxTradeFailed',
    'FxTradeRefunded',
  ]),
  commandsFor(event) {
    const tradeId = String(event.data.tradeId)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'mirror',
        organizationId,
        async run(commands, context) {
          const { state } = await commands.load(fxTradeDecider, fxTradeStreamOf(tradeId))
          if (state.status === 'none') return { position: undefined }
          const command = {
            type: 'MirrorFxTrade' as const,
            organizationId,
            transferId: tradeId,
            now: new Date().toISOString(),
            trade: state,
            legIds: drawPlanEntropy().legIds,
          }
          const result = await commands.handle(transferDecider, streams.transfer(tradeId), command, context)
          return { position: result.position }
        },
      },
    ]
  },
}
