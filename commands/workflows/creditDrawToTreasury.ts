// A credit line draw reaches its payout treasury: once DrawTaken is on the facility's stream, the
// treasury's available balance is credited from the credit line (a DRAW ledger transaction on the
// treasury account's stream). The command's id is derived from the DrawTaken event (one per draw)
// and the credit's cause is the draw id, so a crash between the draw and the credit, or a replay,
// neither loses nor doubles it. A treasury that refuses the credit (closed meanwhile) fails the draw,
// which is unwound on the facility (FailDraw): an outcome, never a stopped consumer.
import { DomainError } from '../../domain/errors.js'
import { liquidityFacilityDecider } from '../../domain/liquidity-facility/decider.js'
import { DrawTaken } from '../../domain/liquidity-facility/events.js'
import { facilityStreamOf } from '../liquidity-facility/facilityCommands.js'
import { organizationOfEvent } from '../../events/eventOrganization.js'
import { creditFunds } from '../accounts/funds.js'
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
        async run(runtime, context) {
          try {
            return await creditFunds(
              runtime,
              {
                organizationId,
                accountId: draw.payoutTreasuryId,
                currency: draw.currency,
                amountMinor: BigInt(draw.amountMinor),
                cause: draw.drawId,
                source: 'credit_line',
              },
              context,
            )
          } catch (error) {
            // The treasury refused it (closed meanwhile): the draw fails and is unwound, nothing borrowed.
            if (!(error instanceof DomainError)) throw error
            return runtime.handle(
              liquidityFacilityDecider,
              facilityStreamOf(organizationId),
              {
                type: 'FailDraw',
                organizationId,
                drawId: draw.drawId,
                code: 'payout_treasury_unavailable',
                reason: error.message,
                now: new Date().toISOString(),
              },
              { ...context, commandId: `draw-fail:${draw.drawId}` },
            )
          }
        },
      },
    ]
  },
}
