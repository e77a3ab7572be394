// POST /v1/fx/quotes: a firm quote for a customer, in the order a caller can fix what is wrong: the
// pair's rules, the customer, the organization's switches, the customer's capabilities, then the
// liquidity provider (mid rate, corridor limits, capacity). The quote takes its part of the
// corridor's capacity on the organization's FX stream before it is created.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DomainError } from '../../domain/errors.js'
import { FX_QUOTE_LIMITS } from '../../domain/fx-quote/decider.js'
import { type QuoteAmount, priceQuote, quoteRefusalExtra } from '../../domain/fx-quote/priceQuote.js'
import { fxQuoteResource, toQuoteResource } from '../../domain/fx-quote/resource.js'
import { corridorOf } from '../../domain/fx-settings/capacity.js'
import { DEFAULT_SANDBOX_PROVIDER, assertPairOffered, defaultFxSettings } from '../../domain/fx-settings/settings.js'
import { minorToUsdCents } from '../../domain/fx/corridorLimits.js'
import type { MidRate } from '../../domain/fx/liquidityProvider.js'
import { type FxPair, checkPair } from '../../domain/fx/pair.js'
import { sandboxLiquidityProvider } from '../../domain/fx/sandboxLiquidityProvider.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import { assertMaySend, senderFactsOf } from '../../domain/transfer/capabilities.js'
import { requireCustomer } from '../../domain/customer/guards.js'
import type { Customer } from '../../domain/customer/state.js'
import { routeSide } from '../../domain/fx/corridors.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { loadCustomer } from '../customers/facts.js'
import { assertCustomerInScope } from '../customers/scope.js'
import { fxSettingsCommands, fxSettingsStreamOf } from '../fx-settings/fxSettingsCommands.js'
import { type CommandRuntime, deciderBinding } from '../runtime/commandRuntime.js'
import { fxQuoteBinding } from './quoteCommands.js'
import { createQuoteBody } from './quoteBody.js'

const fxBinding = deciderBinding({ ...fxSettingsCommands, toResource: (state) => state })

export type FxQuoteRouteDeps = { commands: CommandRuntime; environment: Environment; clock: () => Date }

/** The provider's refusals on quote creation carry the corridor's limits and the amount asked for. */
function withQuoteExtra<T>(extra: ReturnType<typeof quoteRefusalExtra>, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'validation' && error.extra)
      throw new DomainError(error.kind, error.code, error.message, error.details, { ...error.extra, ...extra })
    throw error
  }
}

/** The transfer rules' own check: 422 customer_not_approved or customer_capability_missing (as GET /v1/fx/pairs narrows). */
function assertCustomerMayUse(customer: Customer, pair: FxPair): void {
  assertMaySend(senderFactsOf(customer), routeSide(pair.source), routeSide(pair.destination))
}

export const fxQuoteWriteRoutes: FastifyPluginAsyncZod<FxQuoteRouteDeps> = async (app, deps) => {
  const quotes = deps.commands.bind(fxQuoteBinding)
  const fx = deps.commands.bind(fxBinding)

  app.post(
    '/fx/quotes',
    {
      schema: {
        operationId: 'createFxQuote',
        tags: ['FX'],
        summary: 'Create a firm quote',
        description:
          `A firm price for converting an amount for one customer, good for ${FX_QUOTE_LIMITS.validForMs / 1000} seconds ` +
          '(expiresAt); accept it with POST /v1/fx/trades. The amount goes on exactly one side, in minor units; the other side ' +
          'is priced. The spread (the customer’s own pricing, else the organization’s) is withheld from the source amount and ' +
          'shown as fee. Errors, in the order they are checked: 400 invalid_request, 400 fx_pair_shape_invalid, 400 ' +
          'fx_source_rail_not_supported, 404 fx_pair_unsupported, 404 resource_not_found (customerId), 403 ' +
          'fx_fiat_pairs_not_enabled, 409 fx_not_enabled_for_pair, 422 customer_not_approved or customer_capability_missing, then ' +
          'the not-executable 422s with hint, limits (sourceCurrency, min, max in minor units) and requested: ' +
          'fx_quote_temporarily_unavailable, fx_quote_amount_too_small, fx_quote_amount_too_large, fx_quote_capacity_exhausted ' +
          '(the corridor’s capacity is used by quotes and recovers within an hour). Idempotency-Key replays the first answer.',
        headers: writeHeaders,
        body: createQuoteBody,
        response: { 201: fxQuoteResource, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { customerId, sourceAmount, destinationAmount, ...flat } = request.body
      const pair = checkPair(flat)
      assertCustomerInScope(request, customerId)
      const customer = requireCustomer(await loadCustomer(deps.commands, customerId), { organizationId, customerId })
      const { state } = await deps.commands.load(fxSettingsCommands.decider, fxSettingsStreamOf(organizationId))
      const settings = state.settings ?? defaultFxSettings(deps.environment)
      assertPairOffered(settings, pair)
      assertCustomerMayUse(customer, pair)

      const amount: QuoteAmount =
        sourceAmount !== undefined
          ? { side: 'SOURCE', minor: BigInt(sourceAmount) }
          : { side: 'DESTINATION', minor: BigInt(destinationAmount!) }
      const provider = sandboxLiquidityProvider(deps.environment, state.provider ?? DEFAULT_SANDBOX_PROVIDER, state.capacityUse)
      const limits = provider.limits(pair)
      const extra = quoteRefusalExtra(pair, limits, amount)
      const now = deps.clock()
      const mid: MidRate = withQuoteExtra(extra, () => provider.midRate(pair, now))
      const spreadBps = state.customerSpreads[customerId] ?? settings.spreadBps
      const prices = priceQuote(pair, amount, mid, spreadBps, limits)
      const quoteId = newId('fxq')
      await fx.handleToState(request, {
        type: 'ReserveFxCapacity',
        organizationId,
        corridor: corridorOf(pair),
        quoteId,
        amountCents: minorToUsdCents(prices.sourceMinor, pair.source.currency),
        refusal: extra,
        now: now.toISOString(),
      })
      const created = await quotes.handleToState(request, {
        type: 'CreateFxQuote',
        organizationId,
        quoteId,
        customerId,
        pair,
        amount,
        mid,
        spreadBps,
        limits,
        now: now.toISOString(),
      })
      if (created.status === 'none') throw new Error('a created quote has a state')
      reply.code(201)
      return toQuoteResource(created.quote, { status: 'PENDING' }, now.toISOString())
    },
  )
}
