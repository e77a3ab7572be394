// What an operator key may call (issue 30, point 4): the deployment's operator routes under
// /v1/operator (consumer lag and state, dead letters, any resource's event history, masked) and
// nothing else: every tenant route is 403 operator_key_not_allowed for it, whatever its method, so
// an operator key never reads or changes an organization's records, its own included. Every other key
// is 403 operator_key_required on an operator route. Decided by the matched route, not the raw URL.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../http/errorBody.js'

/** The operator routes' prefix, as the router matched it (server/operator/). */
export const OPERATOR_ROUTE_PREFIX = '/v1/operator/'

export const isOperatorRoute = (route: string): boolean => route.startsWith(OPERATOR_ROUTE_PREFIX)

export const operatorScope = fp(async (app: FastifyInstance) => {
  // Registered after authenticate, agentScope and auditorScope: the principal is known, the route matched.
  app.addHook('onRequest', async (request) => {
    const principal = request.principal
    if (!principal) return
    const route = request.routeOptions.url ?? request.url
    const operator = principal.role === 'OPERATOR'
    if (isOperatorRoute(route) && !operator) {
      throw new ApiError(403, `Operator routes need an operator key (keys create --role operator): ${route}`, 'operator_key_required')
    }
    if (!isOperatorRoute(route) && operator) {
      throw new ApiError(
        403,
        `An operator key reaches only the operator routes (${OPERATOR_ROUTE_PREFIX}...), no tenant's: ${request.method} ${route}`,
        'operator_key_not_allowed',
      )
    }
  })
})
