// Public events of the liquidity facility: a draw becomes `liquidity.draw.created` (the draw as
// GET shows it at that instant), a repayment `liquidity.repayment.created` (the repayment record,
// naming the draws it paid and closed), a failed draw `liquidity.draw.failed` (its id and why). Configuration and the
// payout treasury are not published.
import { publicEventMappersOf } from '../publicEvents.js'
import { DrawFailed, DrawTaken, type LiquidityFacilityEvent, RepaymentReceived } from './events.js'
import { toDrawResource, toRepaymentResource } from './resource.js'

export const liquidityFacilityPublicEvents = publicEventMappersOf<LiquidityFacilityEvent>({
  DrawTaken: (event) => {
    const d = DrawTaken.parse(event.data)
    const draw = toDrawResource(
      {
        id: d.drawId,
        currency: d.currency,
        principalMinor: BigInt(d.amountMinor),
        principalRepaidMinor: 0n,
        feePaidMinor: 0n,
        terms: { fundingFeeBpsPerHour: d.fundingFeeBpsPerHour, feeCapHours: d.feeCapHours },
        payoutTreasuryId: d.payoutTreasuryId,
        reference: d.reference,
        drawnAt: d.drawnAt,
        repaidAt: null,
        failure: null,
      },
      d.drawnAt,
    )
    return { type: 'liquidity.draw.created', data: draw, tags: [d.drawId, d.payoutTreasuryId] }
  },
  RepaymentReceived: (event) => {
    const r = RepaymentReceived.parse(event.data)
    return {
      type: 'liquidity.repayment.created',
      data: toRepaymentResource(r),
      // The repayment, then its draws oldest first (allocation order): a message keeps the first 20
      // tags (webhooks/envelope.ts), so a repayment of more draws is found by its id and its oldest 19.
      tags: [r.repaymentId, ...r.allocations.map((a) => a.drawId)],
    }
  },
  DrawFailed: (event) => {
    const f = DrawFailed.parse(event.data)
    return {
      type: 'liquidity.draw.failed',
      data: { id: f.drawId, status: 'FAILED', failure: { code: f.code, message: f.reason, failedAt: f.failedAt } },
      tags: [f.drawId],
    }
  },
})
