// Read routes of fixed routes: a customer's list and one route, both scoped to the organization and
// to X-On-Behalf-Of. Each route shows its deposit coordinates in full (the customer hands them to
// its payers) and its sweep target expanded (masked).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { fixedRouteResourceSchema } from '../../domain/fixed-route/resource.js'
import { fixedRouteParams } from '../../http/accountParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { offsetPageSchema, toOffsetPage } from '../../http/pagination/offsetPage.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { customerVisible } from '../accounts/queries.js'
import { sweepTargetsOf } from './expand.js'
import { FIXED_ROUTE_LIST_LIMITS as L } from './limits.js'
import { fixedRouteListQuery } from './listQuery.js'
import { type FixedRouteScope, findFixedRoute, listCustomerFixedRoutes } from './queries.js'

const TAGS = ['Fixed routes']
const customerParams = idParam('customerId', 'cus_', 'Customer')

const SHOWS =
  'Each route shows its dedicated deposit instructions in full (account number, IBAN, beneficiary: what payers need) and ' +
  'its sweep target account expanded (bank account numbers masked to their last four characters).'

const scopeOf = (request: FastifyRequest): FixedRouteScope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

export const fixedRouteReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  app.get(
    '/customers/:customerId/fixed-routes',
    {
      schema: {
        operationId: 'listFixedRoutes',
        tags: TAGS,
        summary: "List a customer's fixed routes (virtual bank accounts and virtual wallets), newest first",
        description:
          `Offset paging: limit (${L.minLimit}-${L.maxLimit}, default ${L.defaultLimit}) and offset (default 0). The answer: data ` +
          '(the page), total (the customer’s routes), limit and offset (as asked). Order: newest first (by creation, then id). ' +
          'Disabled and closed routes are listed too (status, enabled). 404 for an unknown customer, another organization’s, ' +
          `or another customer than X-On-Behalf-Of's. ${SHOWS}`,
        headers: readHeaders,
        params: customerParams,
        querystring: fixedRouteListQuery,
        response: {
          200: offsetPageSchema(fixedRouteResourceSchema).describe(
            'data: the page; total: the customer’s routes; limit: the page size asked for; offset: routes before this page',
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { customerId } = request.params
      const scope = scopeOf(request)
      const visible = await customerVisible(db, { organizationId: scope.organizationId, customerId: scope.onBehalfOf }, customerId)
      if (!visible) throw notFound('Customer', customerId)
      const { routes, total } = await listCustomerFixedRoutes(db, protection, scope.organizationId, customerId, request.query)
      return toOffsetPage(routes, total, request.query, await sweepTargetsOf(db, scope.organizationId, routes))
    },
  )

  app.get(
    '/fixed-routes/:id',
    {
      schema: {
        operationId: 'getFixedRoute',
        tags: TAGS,
        summary: 'Read a fixed route (its id is its source account id: vba_ for fiat, inw_ for crypto)',
        description:
          "404 for an unknown route, another organization's, one that is not X-On-Behalf-Of's customer's, or an account that " +
          `is not a fixed route's source account. ${SHOWS}`,
        headers: readHeaders,
        params: fixedRouteParams,
        response: { 200: fixedRouteResourceSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const route = await findFixedRoute(db, protection, scope, request.params.id)
      if (!route) throw notFound('Fixed route', request.params.id)
      const expanded = await sweepTargetsOf(db, scope.organizationId, [route])
      return expanded(route)
    },
  )
}
