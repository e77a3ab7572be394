// Read one account (any kind) from the accounts read model. (The lists and expand come with the
// account read API; this is the single read the write routes answer consistently with.)
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { accountIdParams } from '../../http/accountParams.js'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'

export const getAccountRoute: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase> }> = async (app, { db }) => {
  app.get(
    '/accounts/:id',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Read an account',
        description: "404 for an unknown account, another organization's, or (with X-On-Behalf-Of) another customer's.",
        headers: readHeaders,
        params: accountIdParams,
        response: { 200: accountResourceSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      let query = db
        .selectFrom('accounts')
        .select('resource')
        .where('organization_id', '=', principalOf(request).organizationId)
        .where('id', '=', request.params.id)
      if (request.onBehalfOf !== undefined) query = query.where('customer_id', '=', request.onBehalfOf)
      const row = await query.executeTakeFirst()
      if (!row) throw notFound('Account', request.params.id)
      return row.resource
    },
  )
}
