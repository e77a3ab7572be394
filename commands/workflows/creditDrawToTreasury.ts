// A credit line draw reaches its payout treasury: once DrawTaken is on the facility's stream, the
// treasury's available balance is credited from the credit line (a DRAW ledger transaction on the
// treasury account's stream). The command's id is derived from the DrawTaken event (one per draw)
// and the credit's cause is the draw id, so a crash between the draw and the credit, or a replay,
// neither loses nor doubles it.
import { DrawTaken } from '../../domain/liquidity-facility/events.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { creditFunds } from '../accounts/funds.js'
import { storeCommands } from '../runtime/commandRuntime.js'
import type { Workflow } from './workflow.js'

export const creditDrawToTreasury: Workflow = {
  name: 'credit_draw_to_treasury',
  handles: new Set(['DrawTaken']),
  commandsFor(event) {
    const draw = DrawTaken.parse(event.data)
    const organizationId = organizationOfEvent(event)
    return [
      {
        step: 'credit-treasury',
        organizationId,
        run: (store, context) =>
          creditFunds(
            storeCommands(store),
            {
              organizationId,
              accountId: draw.payoutTreasuryId,
              currency: draw.currency,
              amountMinor: BigInt(draw.amountMinor),
              cause: draw.drawId,
              source: 'credit_line',
            },
            context,
          ),
      },
    ]
  },
}
