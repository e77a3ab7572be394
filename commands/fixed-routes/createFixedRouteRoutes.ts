// Creating a fixed route: POST /v1/customers/{customerId}/fixed-routes. The route's source account
// (vba_ with dedicated bank coordinates, or inw_ with a dedicated deposit address) is opened with it,
// in one event: the route IS that account. The customer must be APPROVED with the capabilities of
// each source rail, as a transfer on the route would need (domain/fixed-route/plan.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ACCOUNT_KINDS } from '../../domain/account/accountKinds.js'
import type { AccountDetails } from '../../domain/account/events.js'
import { COORDINATE_RANDOM_BYTES, bankCoordinates } from '../../domain/fixed-route/depositCoordinates.js'
import { invalid } from '../../domain/errors.js'
import { FIXED_ROUTE_LIMITS } from '../../domain/fixed-route/limits.js'
import { planFixedRoute } from '../../domain/fixed-route/plan.js'
import { asFixedRoute, fixedRouteResourceSchema } from '../../domain/fixed-route/resource.js'
import { type FixedRouteConfig, isFixedRouteFiatCurrency } from '../../domain/fixed-route/routeConfig.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import { addressTypeOf, sandboxWalletAddress } from '../../domain/shared/chain/index.js'
import { newId } from '../../domain/shared/ids.js'
import { assertAmountsWithinBound } from '../../domain/shared/money/index.js'
import { errorResponses } from '../../http/errorBody.js'
import { customerIdNamedParams } from '../../http/customerParams.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands, openedAccount } from '../accounts/accountCommands.js'
import { balanceProvider, walletProvider } from '../accounts/providers.js'
import { loadDocumentFacts } from '../customers/facts.js'
import { assertCustomerInScope } from '../customers/scope.js'
import { loadOrgAccount, loadSender } from '../transfers/transferFacts.js'
import { senderFactsOf } from '../../domain/transfer/capabilities.js'
import { createFixedRouteBody } from './createFixedRouteBody.js'
import type { FixedRouteRouteDeps } from './deps.js'
import { fixedRouteAnswer } from './fixedRouteFacts.js'

function sourceDetails(route: FixedRouteConfig, beneficiaryName: string): AccountDetails {
  const currency = route.sourceCurrency
  if (isFixedRouteFiatCurrency(currency))
    return {
      kind: 'VIRTUAL_BANK',
      route,
      coordinates: bankCoordinates({
        currency,
        beneficiaryName,
        beneficiaryAddress: null,
        random: secureRandomBytes(COORDINATE_RANDOM_BYTES),
      }),
    }
  const chain = route.chain!
  const addressType = addressTypeOf(chain)
  return { kind: 'DEPOSIT_WALLET', route, chain, addressType, walletAddress: sandboxWalletAddress(addressType, secureRandomBytes(32)) }
}

export const createFixedRouteRoutes: FastifyPluginAsyncZod<FixedRouteRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  app.post(
    '/customers/:customerId/fixed-routes',
    {
      schema: {
        operationId: 'createFixedRoute',
        tags: ['Fixed routes'],
        summary: 'Create a fixed route',
        description:
          'Opens dedicated deposit coordinates for the customer that sweep every deposit to sweepTargetAccountId: a virtual bank ' +
          'account (vba_: ACH and wire account and routing number, SEPA IBAN and BIC, SWIFT BIC and correspondent) or a deposit ' +
          'wallet (inw_: an address valid on the chain). The route id is that account id. 404 unknown customer or account; ' +
          '422 invalid_fixed_route (one detail per problem), amount_too_large (developerFeeFixed or minimumAmount above 10^12 major ' +
          'units of the source currency), fixed_route_limit_reached (100 per customer), customer_not_approved, ' +
          'customer_capability_missing, route_not_supported.',
        headers: writeHeaders,
        params: customerIdNamedParams,
        body: createFixedRouteBody,
        response: { 201: fixedRouteResourceSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { customerId } = request.params
      assertCustomerInScope(request, customerId)
      const body = request.body
      // The customer of the path first: an unknown one is the 404, whatever accounts the body names.
      const customer = await loadSender(deps.commands, organizationId, customerId)
      // The amounts are in the source currency the body names: checked before anything else is read or written.
      assertAmountsWithinBound(
        (['developerFeeFixed', 'minimumAmount'] as const).flatMap((field) => {
          const text = body[field]
          return text === undefined ? [] : [{ field, money: { currency: body.sourceCurrency, amountMinor: BigInt(text) } }]
        }),
      )
      const [target, refund, documents, held] = await Promise.all([
        loadOrgAccount(deps.commands, organizationId, body.sweepTargetAccountId),
        body.refundAccountId === undefined ? undefined : loadOrgAccount(deps.commands, organizationId, body.refundAccountId),
        loadDocumentFacts(deps.commands, body.documentIds ?? []),
        deps.fixedRoutes.countOf(organizationId, customerId),
      ])
      // From the read model: creations still in flight are not counted, so a burst may pass it by a few.
      if (held >= FIXED_ROUTE_LIMITS.maxRoutesPerCustomer)
        throw invalid('fixed_route_limit_reached', `Customer ${customerId} holds ${held} fixed routes, the most one may hold`, [
          {
            field: 'customerId',
            message: `at most ${FIXED_ROUTE_LIMITS.maxRoutesPerCustomer} fixed routes per customer`,
            value: customerId,
          },
        ])
      const route = planFixedRoute(body, {
        customer: senderFactsOf(customer),
        target,
        refund,
        documents,
        organizationId,
      })
      const details = sourceDetails(route, customer.customerName)
      const kind = details.kind === 'VIRTUAL_BANK' ? 'VIRTUAL_BANK' : 'DEPOSIT_WALLET'
      const state = await accounts.handleToState(request, {
        type: 'OpenAccount',
        organizationId,
        accountId: newId(ACCOUNT_KINDS[kind].prefix),
        now: new Date().toISOString(),
        status: 'ACTIVE',
        account: {
          customerId,
          kind,
          type: ACCOUNT_KINDS[kind].type,
          currencyCodes: [route.sourceCurrency],
          paymentRails: route.sourceRails,
          holdsBalance: false,
          balanceSourceEligible: false,
          provider: kind === 'VIRTUAL_BANK' ? balanceProvider(deps.environment) : walletProvider(deps.environment),
          counterpartyId: null,
          metadata: body.metadata ?? {},
          details,
        },
      })
      const opened = asFixedRoute(openedAccount(state))
      if (!opened) throw new Error('a fixed route account opened as another kind')
      return reply.code(201).send(await fixedRouteAnswer(deps.commands, opened))
    },
  )
}
