// GET /v1/fx/quotes/{quoteId}: a quote as it stands, expired ones included (a pending quote past
// expiresAt reads as EXPIRED before its timer has fired). Another organization's quote is a 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { fxQuoteResource, toQuoteResource } from '../../domain/fx-quote/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'

export const fxQuoteReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; clock: () => Date }> = async (app, { db, clock }) => {
  app.get(
    '/fx/quotes/:quoteId',
    {
      schema: {
        operationId: 'getFxQuote',
        tags: ['FX'],
        summary: 'Read a quote',
        description: 'The quote and its status: PENDING, ACCEPTED (with tradeId) or EXPIRED. With X-On-Behalf-Of, that customer’s only.',
        params: idParam('quoteId', 'fxq_', 'Quote'),
        headers: readHeaders,
        response: { 200: fxQuoteResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { quoteId } = request.params
      let query = db
        .selectFrom('fx_quotes')
        .select(['quote', 'outcome'])
        .where('organization_id', '=', principalOf(request).organizationId)
        .where('id', '=', quoteId)
      if (request.onBehalfOf !== undefined) query = query.where('customer_id', '=', request.onBehalfOf)
      const row = await query.executeTakeFirst()
      if (!row) throw notFound('Quote', quoteId)
      return toQuoteResource(row.quote, row.outcome, clock().toISOString())
    },
  )
}
