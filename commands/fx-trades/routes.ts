// POST /v1/fx/trades: accepts a firm quote and creates its trade, in an order that leaves nothing
// half done for long: (1) the quote is read (404, 410 when expired or taken), (2) the accounts are
// checked, (3) the customer's slot for the source asset is claimed (409 while another trade is
// active), (4) the quote is accepted (410 when another accept won: the claim is released), (5) the
// trade is created. The trade's id is derived from the quote's, so a retry after a crash between
// (4) and (5) finds the quote accepted by its own trade and finishes it; a claim whose trade never
// appeared is taken over by the customer's next trade after FX_TRADE_LIMITS.orphanClaimMs.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DomainError } from '../../domain/errors.js'
import { fxQuoteDecider, quoteExpired, quoteNotPending } from '../../domain/fx-quote/decider.js'
import { FX_TRADE_LIMITS, type FxTradeCommand } from '../../domain/fx-trade/decider.js'
import { fxTradeResource, toFxTradeResource } from '../../domain/fx-trade/resource.js'
import { checkTradeAccounts } from '../../domain/fx-trade/tradeAccounts.js'
import { slotKeyOf } from '../../domain/fx-trade-slot/decider.js'
import { routeSide } from '../../domain/fx/corridors.js'
import { checkPair } from '../../domain/fx/pair.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import { addressTypeOf, sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import type { Environment } from '../../domain/shared/environment.js'
import { depositInstructionsFor } from '../../domain/transfer/depositInstructions.js'
import { EXTERNAL_WALLET_REVIEW_LIMITS } from '../../domain/account/externalWalletReview.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { assertCustomerInScope } from '../customers/scope.js'
import { fxQuoteBinding, fxQuoteStreamOf } from '../fx-quotes/quoteCommands.js'
import { loadOrgQuote } from '../fx-quotes/quoteFacts.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { drawPlanEntropy } from '../transfers/newTransfer.js'
import { transferCommands } from '../transfers/transferCommands.js'
import { loadOrgAccount } from '../transfers/transferFacts.js'
import { fxTradeBinding, fxTradeSlotBinding, fxTradeSlotsStreamOf, tradeIdOfQuote } from './tradeCommands.js'
import { fxTradeSlotDecider } from '../../domain/fx-trade-slot/decider.js'
import { holderFact } from './tradeFacts.js'

export type FxTradeRouteDeps = { commands: CommandRuntime; environment: Environment; clock: () => Date }

const accountId = z.string().max(64)

export const createTradeBody = z
  .object({
    quoteId: z.string().max(64).describe('The firm quote to accept (fxq_), PENDING and not past expiresAt'),
    destinationAccountId: accountId.describe(
      "Where the destination amount is paid: the quote's customer's external wallet on the destination network, or external " +
        'bank account on the destination rail, ACTIVE',
    ),
    sourceAccountId: accountId
      .optional()
      .describe(
        'Where the deposit comes from, when known: the customer’s external wallet on the source network (still IN_REVIEW: the ' +
          'trade waits in PENDING_WALLET_APPROVAL) or bank account in the source currency',
      ),
  })
  .strict()

export const fxTradeWriteRoutes: FastifyPluginAsyncZod<FxTradeRouteDeps> = async (app, deps) => {
  const trades = deps.commands.bind(fxTradeBinding)
  const slots = deps.commands.bind(fxTradeSlotBinding)
  const quotes = deps.commands.bind(fxQuoteBinding)
  const transfers = deps.commands.bind(transferCommands)

  app.post(
    '/fx/trades',
    {
      schema: {
        operationId: 'createFxTrade',
        tags: ['FX'],
        summary: 'Accept a quote: create a trade',
        description:
          'Accepts a firm quote and creates its trade (a tfr_ id, also shown as a transfer of flow FX). The trade awaits its ' +
          'deposit (AWAITING_DEPOSIT, with depositInstructions and depositDeadline: its own time, 30 minutes for crypto and 24 ' +
          'hours for a bank transfer, not the quote’s expiry), or, when its source wallet is still being screened, waits for it ' +
          '(PENDING_WALLET_APPROVAL, with screeningDeadline). Errors: 404 resource_not_found (quote or account), 410 ' +
          'fx_quote_expired or fx_quote_not_pending, 422 account_not_owned_by_customer or account_not_for_pair, 409 ' +
          'account_not_active, 409 fx_trade_already_active while another trade of the customer is active for the same source ' +
          'asset and network. Idempotency-Key replays the first answer.',
        headers: writeHeaders,
        body: createTradeBody,
        response: { 201: fxTradeResource, ...errorResponses(404, 409, 410, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { quoteId, destinationAccountId, sourceAccountId } = request.body
      const quoteState = await loadOrgQuote(deps.commands, organizationId, quoteId)
      const quote = quoteState.quote
      assertCustomerInScope(request, quote.customerId)
      const tradeId = tradeIdOfQuote(quoteId)
      const now = deps.clock()
      // A quote this very trade accepted before a crash: finish creating the trade.
      const resuming = quoteState.status === 'ACCEPTED' && quoteState.tradeId === tradeId
      const acceptedBy = quoteState.status === 'ACCEPTED' ? quoteState.tradeId : tradeId
      const taken = () => quoteNotPending(quoteId, acceptedBy)
      if (quoteState.status === 'ACCEPTED' && (!resuming || (await holderFact(deps.commands, tradeId)).trade !== 'MISSING')) throw taken()
      if (quoteState.status === 'EXPIRED' || (!resuming && now.toISOString() >= quote.expiresAt))
        throw quoteExpired(quoteId, quote.expiresAt)

      const pair = checkPair(quote.pair)
      const [destination, source] = await Promise.all([
        loadOrgAccount(deps.commands, organizationId, destinationAccountId),
        sourceAccountId === undefined ? undefined : loadOrgAccount(deps.commands, organizationId, sourceAccountId),
      ])
      const { walletInReview, destination: payout } = checkTradeAccounts(pair, quote.customerId, destination, source)

      const slot = { organizationId, customerId: quote.customerId, slotKey: slotKeyOf(pair.source), tradeId }
      const { state: slotState } = await deps.commands.load(fxTradeSlotDecider, fxTradeSlotsStreamOf(quote.customerId))
      const holder = slotState.slots.get(slot.slotKey)
      const fact = holder && holder.tradeId !== tradeId ? await holderFact(deps.commands, holder.tradeId) : null
      await slots.handleToState(request, { type: 'ClaimFxTradeSlot', ...slot, holder: fact, now: now.toISOString() })
      if (!resuming)
        try {
          await quotes.handleToState(request, { type: 'AcceptFxQuote', organizationId, quoteId, tradeId, now: now.toISOString() })
        } catch (error) {
          // The quote expired meanwhile: this trade will never exist, so its claim goes too. A quote another request
          // accepted was accepted for this same trade id (it is the quote's): that request holds the claim.
          const { state } = await deps.commands.load(fxQuoteDecider, fxQuoteStreamOf(quoteId))
          if (state.status !== 'ACCEPTED' || state.tradeId !== tradeId)
            await slots.handleToState(request, { type: 'ReleaseFxTradeSlot', ...slot, now: now.toISOString() })
          throw error
        }

      const sourceSide = routeSide(pair.source)
      const depositAddress =
        sourceSide.kind === 'CHAIN' ? sandboxWalletAddress(addressTypeOf(sourceSide.chain), secureRandomBytes(32)) : null
      const amount = { currency: pair.source.currency, amountMinor: quote.sourceAmountMinor }
      const instructions = depositInstructionsFor(sourceSide, tradeId, amount, depositAddress)
      if (!instructions) throw new Error('an FX source is a chain or a rail, never a balance')
      const depositWindowMs = pair.source.kind === 'CRYPTO' ? FX_TRADE_LIMITS.cryptoDepositWindowMs : FX_TRADE_LIMITS.fiatDepositWindowMs
      const at = (ms: number) => new Date(now.getTime() + ms).toISOString()
      const command: FxTradeCommand = {
        type: 'CreateFxTrade',
        organizationId,
        tradeId,
        now: now.toISOString(),
        trade: {
          customerId: quote.customerId,
          quoteId,
          pair: quote.pair,
          slotKey: slot.slotKey,
          sourceAmountMinor: quote.sourceAmountMinor,
          destinationAmountMinor: quote.destinationAmountMinor,
          feeMinor: quote.feeMinor,
          spreadBps: quote.spreadBps,
          exchangeRate: quote.exchangeRate,
          rate: quote.rate,
          referenceRate: quote.referenceRate,
          referenceProvider: quote.referenceProvider,
          referenceRateAsOf: quote.referenceRateAsOf,
          sourceAccountId: sourceAccountId ?? null,
          destinationAccountId,
          destination: payout,
          status: walletInReview ? 'PENDING_WALLET_APPROVAL' : 'AWAITING_DEPOSIT',
          depositInstructions: instructions,
          depositWindowMs,
          depositDeadline: walletInReview ? null : at(depositWindowMs),
          // The wallet's own review runs EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs after it opened: well inside this.
          screeningDeadline: walletInReview ? at(FX_TRADE_LIMITS.screeningWindowMs + EXTERNAL_WALLET_REVIEW_LIMITS.reviewDelayMs) : null,
        },
      }
      const created = await trades.handleToState(request, command).catch((error: unknown) => {
        // Two requests finishing the same accepted quote: one trade, the other request is told the quote is taken.
        if (error instanceof DomainError && error.code === 'resource_already_exists') throw taken()
        throw error
      })
      if (created.status === 'none') throw new Error('a created trade has a state')
      // The trade's transfer view, at once: GET /v1/transfers/{id} finds it right after this answer (the workflow moves it on).
      await transfers.handleToState(request, {
        type: 'MirrorFxTrade',
        organizationId,
        transferId: tradeId,
        now: now.toISOString(),
        trade: created,
        legIds: drawPlanEntropy().legIds,
      })
      reply.code(201)
      return toFxTradeResource(created)
    },
  )
}
