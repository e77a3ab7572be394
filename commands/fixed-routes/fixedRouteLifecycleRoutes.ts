// Turning a fixed route off and on: POST /v1/fixed-routes/{id}/disable and /enable. A disabled route
// keeps its coordinates and refuses deposits (the sandbox simulation answers 409 fixed_route_disabled)
// until it is enabled again; both are idempotent (the same state again answers the route as it is).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { asFixedRoute, fixedRouteResourceSchema } from '../../domain/fixed-route/resource.js'
import { fixedRouteParams } from '../../http/accountParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { accountCommands, openedAccount } from '../accounts/accountCommands.js'
import type { AccountRouteDeps } from '../accounts/deps.js'
import { fixedRouteAnswer, loadFixedRoute } from './fixedRouteFacts.js'

export const fixedRouteLifecycleRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  const accounts = deps.commands.bind(accountCommands)
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    app.post(
      `/fixed-routes/:id/${action}`,
      {
        schema: {
          operationId: enabled ? 'enableFixedRoute' : 'disableFixedRoute',
          tags: ['Fixed routes'],
          summary: enabled ? 'Enable a fixed route' : 'Disable a fixed route',
          description: enabled
            ? 'The route sweeps deposits again (status ACTIVE). 404 unknown route; 409 account_closed.'
            : 'The route keeps its coordinates but refuses deposits (status DISABLED, enabled false). ' +
              '404 unknown route; 409 account_closed.',
          headers: writeHeaders,
          params: fixedRouteParams,
          response: { 200: fixedRouteResourceSchema, ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        const { organizationId } = principalOf(request)
        const routeId = request.params.id
        await loadFixedRoute(deps.commands, organizationId, routeId, request.onBehalfOf)
        const state = await accounts.handleToState(request, {
          type: 'SetFixedRouteEnabled',
          organizationId,
          accountId: routeId,
          now: new Date().toISOString(),
          onBehalfOf: request.onBehalfOf,
          enabled,
        })
        const route = asFixedRoute(openedAccount(state))
        if (!route) throw new Error('a fixed route changed kind')
        return fixedRouteAnswer(deps.commands, route)
      },
    )
}
