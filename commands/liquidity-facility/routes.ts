// Write routes of the liquidity facility: set the payout treasury, draw, repay. Each is one command
// on the organization's facility stream; the treasuries it may pay to are read first (a fact the
// decider checks). Amounts are minor units of the facility's currency as strings.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { RepaymentReceived } from '../../domain/liquidity-facility/events.js'
import type { LiquidityFacilityReads } from '../../domain/liquidity-facility/facilityReads.js'
import {
  createDrawBody,
  createRepaymentBody,
  drawResource,
  liquidityFacilityResource,
  repaymentResource,
  toDrawResource,
  toRepaymentResource,
  updateFacilityBody,
} from '../../domain/liquidity-facility/resource.js'
import { newId } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { idempotencyHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'
import { liquidityFacilityCommands } from './facilityCommands.js'

export type LiquidityFacilityRouteDeps = {
  commands: CommandRuntime
  /** What time draws and repayments are decided at (and fees computed at); tests step it. */
  clock: () => Date
  liquidityFacility: LiquidityFacilityReads
}

const TAGS = ['Liquidity']

const binding = deciderBinding({
  ...liquidityFacilityCommands,
  toResource: (state) => state,
  waitsForWorkflows: { TakeDraw: 'the API says the payout treasury is credited right after the draw: its balance shows it' },
})

const DRAW_ERRORS =
  '422 draw_amount_too_large (above maximumDrawAmount; details[0].value names it), 422 credit_limit_exceeded (above remainingCredit; ' +
  'details[0].value names it), 409 credit_line_not_configured (no credit line, or a zero limit), 409 payout_treasury_not_set, 409 ' +
  'payout_treasury_not_eligible (the treasury is no longer an active Solana internal wallet of the organization), 409 ' +
  'too_many_open_draws.'

export const liquidityFacilityWriteRoutes: FastifyPluginAsyncZod<LiquidityFacilityRouteDeps> = async (app, deps) => {
  const facility = deps.commands.bind(binding)
  const eligibleTreasuryIds = async (organizationId: string) =>
    (await deps.liquidityFacility.payoutTreasuries(organizationId)).map((t) => t.id)

  app.patch(
    '/liquidity/facility',
    {
      schema: {
        operationId: 'updateLiquidityFacility',
        tags: TAGS,
        summary: 'Set the credit line payout treasury',
        description:
          "payoutTreasuryId must be one of payoutTreasuries (the organization's own ACTIVE Solana internal wallets holding the " +
          "facility's currency), else 422 payout_treasury_not_eligible. Answers the facility record, as GET does.",
        headers: idempotencyHeaders,
        body: updateFacilityBody,
        response: { 200: liquidityFacilityResource, ...errorResponses(409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const now = deps.clock().toISOString()
      await facility.handleToState(request, {
        type: 'SetPayoutTreasury',
        organizationId,
        now,
        payoutTreasuryId: request.body.payoutTreasuryId,
        eligibleTreasuryIds: await eligibleTreasuryIds(organizationId),
      })
      return deps.liquidityFacility.facility(organizationId, now)
    },
  )

  app.post(
    '/liquidity/facility/draws',
    {
      schema: {
        operationId: 'createDraw',
        tags: TAGS,
        summary: 'Draw on the credit line',
        description:
          "Borrows `amount` (minor units of the facility's currency) and pays it to the payout treasury through the ledger (the " +
          "credit line to the treasury's available balance; the treasury is credited by a workflow right after the draw, exactly " +
          'once). The fee accrues per started hour at fundingFeeBpsPerHour of the amount, capped at feeCapHours, at the terms in force ' +
          'now. Concurrent draws are decided one after another: together they never exceed the credit limit. Refusals: ' +
          DRAW_ERRORS,
        headers: idempotencyHeaders,
        body: createDrawBody,
        response: { 201: drawResource, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const now = deps.clock().toISOString()
      const drawId = newId('drw', Date.parse(now))
      const state = await facility.handleToState(request, {
        type: 'TakeDraw',
        organizationId,
        now,
        drawId,
        amountMinor: BigInt(request.body.amount),
        reference: request.body.reference ?? null,
        eligibleTreasuryIds: await eligibleTreasuryIds(organizationId),
      })
      const draw = state.openDraws.find((d) => d.drawId === drawId)
      if (!draw) throw new Error(`draw ${drawId} missing from the facility after it was taken`)
      return reply.code(201).send(
        toDrawResource(
          {
            id: draw.drawId,
            currency: state.currency,
            principalMinor: draw.principalMinor,
            principalRepaidMinor: draw.principalRepaidMinor,
            failure: null,
            feePaidMinor: draw.feePaidMinor,
            terms: draw.terms,
            payoutTreasuryId: draw.payoutTreasuryId,
            reference: draw.reference,
            drawnAt: draw.drawnAt,
            repaidAt: null,
          },
          now,
        ),
      )
    },
  )

  app.post(
    '/liquidity/facility/repayments',
    {
      schema: {
        operationId: 'createRepayment',
        tags: TAGS,
        summary: 'Repay the credit line',
        description:
          "Applies `amount` to the open draws oldest first, each draw's fee due (accrued now) before its principal; a draw whose " +
          'principal is paid is REPAID. A repayment above what the open draws owe now is refused whole: 422 ' +
          'repayment_exceeds_outstanding (details[0].value names what is owed). Recorded on the ledger as one transaction: the ' +
          'world pays the credit line the principal and the fees account the fee.',
        headers: idempotencyHeaders,
        body: createRepaymentBody,
        response: { 201: repaymentResource, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const now = deps.clock().toISOString()
      const result = await facility.handleToResult(request, {
        type: 'RepayDraws',
        organizationId,
        now,
        repaymentId: newId('rpy', Date.parse(now)),
        amountMinor: BigInt(request.body.amount),
      })
      const received = result.events.find((e) => e.type === 'RepaymentReceived')
      if (!received) throw new Error('a repayment appended no RepaymentReceived')
      return reply.code(201).send(toRepaymentResource(RepaymentReceived.parse(received.data)))
    },
  )
}
