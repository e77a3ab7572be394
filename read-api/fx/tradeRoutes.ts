// GET /v1/fx/trades/{tradeId}: a trade as it stands, its shape by status (domain/fx-trade/resource.ts).
// Another organization's trade, or another customer's under X-On-Behalf-Of, is a 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { fxTradeResource, toFxTradeResource } from '../../domain/fx-trade/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'

export const fxTradeReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/fx/trades/:tradeId',
    {
      schema: {
        operationId: 'getFxTrade',
        tags: ['FX'],
        summary: 'Read a trade',
        description:
          'The trade, its shape by status: PENDING_WALLET_APPROVAL carries screeningDeadline; AWAITING_DEPOSIT depositInstructions ' +
          'and depositDeadline; PROCESSING neither; COMPLETED, EXPIRED, FAILED (with failure) and REFUNDED (with refund) none.',
        params: idParam('tradeId', 'tfr_', 'Trade'),
        headers: readHeaders,
        response: { 200: fxTradeResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { tradeId } = request.params
      let query = db
        .selectFrom('fx_trades')
        .select('state')
        .where('organization_id', '=', principalOf(request).organizationId)
        .where('id', '=', tradeId)
      if (request.onBehalfOf !== undefined) query = query.where('customer_id', '=', request.onBehalfOf)
      const row = await query.executeTakeFirst()
      if (!row) throw notFound('Trade', tradeId)
      return toFxTradeResource(row.state)
    },
  )
}
