// Sandbox: drive an FX trade as its sender and the payout rail would (403 in production, 404 for an
// unknown trade). Both answer 202 with the trade as it stands; the trade moves on asynchronously on
// the scheduler, on the rail's own sandbox clock (commands/fx-trades/tradeTimers.ts):
//   simulate-deposit: the deposit arrives (409 fx_trade_not_awaiting_deposit unless AWAITING_DEPOSIT
//     with no deposit yet). `amount` (minor units) other than the quoted source amount is a short or
//     excess deposit: returned to its sender (REFUNDED). Exact: settled and converted (PROCESSING).
//   simulate-payout: the payout leaves on the destination rail (409 fx_trade_not_processing unless
//     PROCESSING with no payout yet). `outcome` COMPLETED (default), FAILED (the rail refuses it: the
//     conversion is unwound and the source returned, FAILED) or RETURNED (paid, then sent back: REFUNDED).
//   advance (POST /v1/sandbox/fx/trades/{id}/advance): the step a timer waits to run, now (settle the
//     deposit, complete the payout, screen the wallet), as the transfers' advance does; 409
//     fx_trade_not_advanceable when nothing waits. The timer, when it fires, then finds nothing to do.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { conflict } from '../../domain/errors.js'
import type { OpenFxTrade } from '../../domain/fx-trade/decider.js'
import { fxTradeResource, toFxTradeResource } from '../../domain/fx-trade/resource.js'
import { positiveMinorAmount } from '../../domain/shared/money/index.js'
import { legTracking } from '../../domain/transfer/legTracking.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import { fxTradeBinding } from '../fx-trades/tradeCommands.js'
import { loadTrade } from '../fx-trades/tradeFacts.js'
import { type FxTradeTimerCommand, fxTradeCommandAtFiring } from '../fx-trades/tradeTimerCommands.js'
import type { FxTradeRouteDeps } from '../fx-trades/routes.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { freshTrackingPool } from '../transfers/trackingPool.js'
import { sandboxOnly } from './sandboxOnly.js'

const params = idParam('tradeId', 'tfr_', 'Trade')

const depositBody = z
  .object({
    amount: positiveMinorAmount.optional().describe('What arrives, minor units of the source currency; default: the quoted source amount'),
  })
  .strict()
  .nullish()

const payoutBody = z
  .object({
    outcome: z
      .enum(['COMPLETED', 'FAILED', 'RETURNED'])
      .optional()
      .describe('COMPLETED (default); FAILED: the rail refuses the payment; RETURNED: paid, then sent back by the beneficiary bank'),
  })
  .strict()
  .nullish()

const schema = (summary: string, description: string) => ({
  tags: ['Sandbox'],
  summary,
  description,
  headers: writeHeaders,
  params,
  response: { 202: fxTradeResource, ...errorResponses(403, 404, 409) },
})

/** The step a trade waits for on the scheduler, or none. */
function pendingStep(s: OpenFxTrade): FxTradeTimerCommand['type'] | null {
  if (s.status === 'PENDING_WALLET_APPROVAL') return 'ScreenFxTradeWallet'
  if (s.status === 'AWAITING_DEPOSIT' && s.deposit !== null) return 'SettleFxTradeDeposit'
  if (s.status === 'PROCESSING' && s.payout !== null) return 'CompleteFxTradePayout'
  return null
}

export const sandboxFxTradeRoutes: FastifyPluginAsyncZod<FxTradeRouteDeps & { commands: CommandRuntime }> = async (app, deps) => {
  const trades = deps.commands.bind(fxTradeBinding)
  sandboxOnly(app, deps.environment)

  app.post(
    '/fx/trades/:tradeId/simulate-deposit',
    {
      schema: {
        operationId: 'simulateFxTradeDeposit',
        ...schema(
          'Simulate the deposit a trade waits for',
          'The sender’s deposit arrives (202); the trade settles it after the source rail’s sandbox delay: PROCESSING when it is ' +
            'the quoted amount, REFUNDED when short, excess or after the deposit deadline. 409 fx_trade_not_awaiting_deposit ' +
            'unless AWAITING_DEPOSIT with no deposit yet.',
        ),
        body: depositBody,
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const s = await loadTrade(deps.commands, organizationId, request.params.tradeId, request.onBehalfOf)
      const now = deps.clock()
      const network = s.trade.pair.sourceNetwork
      const leg = {
        type: network ? ('DEPOSIT_CRYPTO' as const) : ('DEPOSIT_FIAT' as const),
        outputRail: network ?? s.trade.pair.sourceRail!,
      }
      const state = await trades.handleToState(request, {
        type: 'ReceiveFxTradeDeposit',
        organizationId,
        tradeId: s.trade.tradeId,
        amountMinor: request.body?.amount ?? null,
        tracking: legTracking(leg, freshTrackingPool(now), { untrackedSwift: false, chargesFee: false }),
        now: now.toISOString(),
      })
      if (state.status === 'none') throw new Error('a trade keeps its state')
      reply.code(202)
      return toFxTradeResource(state)
    },
  )

  app.post(
    '/fx/trades/:tradeId/simulate-payout',
    {
      schema: {
        operationId: 'simulateFxTradePayout',
        ...schema(
          'Simulate the payout of a processing trade',
          'The payout leaves on the destination rail (202); after the rail’s sandbox delay the trade is COMPLETED, or, with ' +
            'outcome FAILED, FAILED with its source returned, or, with RETURNED, REFUNDED. 409 fx_trade_not_processing unless ' +
            'PROCESSING with no payout yet.',
        ),
        body: payoutBody,
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const s = await loadTrade(deps.commands, organizationId, request.params.tradeId, request.onBehalfOf)
      const state = await trades.handleToState(request, {
        type: 'RequestFxTradePayout',
        organizationId,
        tradeId: s.trade.tradeId,
        outcome: request.body?.outcome ?? 'COMPLETED',
        now: deps.clock().toISOString(),
      })
      if (state.status === 'none') throw new Error('a trade keeps its state')
      reply.code(202)
      return toFxTradeResource(state)
    },
  )

  app.post(
    '/sandbox/fx/trades/:tradeId/advance',
    {
      schema: {
        operationId: 'advanceFxTrade',
        ...schema(
          'Advance a trade one step',
          'Runs now the step the trade waits for on its sandbox clock: settles a received deposit, completes a requested payout, ' +
            'or screens a source wallet in review. 409 fx_trade_not_advanceable when nothing waits (awaiting its deposit, ' +
            'processing with no payout requested, or final).',
        ),
        response: { 200: fxTradeResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadTrade(deps.commands, organizationId, request.params.tradeId, request.onBehalfOf)
      const step = pendingStep(s)
      if (step === null) throw conflict('fx_trade_not_advanceable', `Trade ${s.trade.tradeId} is ${s.status} with no step waiting`)
      const command = await fxTradeCommandAtFiring(deps.commands, { type: step, organizationId, tradeId: s.trade.tradeId }, deps.clock())
      const state = await trades.handleToState(request, command)
      if (state.status === 'none') throw new Error('a trade keeps its state')
      return toFxTradeResource(state)
    },
  )
}
