// X-On-Behalf-Of: a platform acting for one of its customers names it in this header (the spec's
// X-Service-On-Behalf-Of, whose real name carries the maker's brand). The customer must belong to
// the caller's organization (404 otherwise, like any other organization's resource). Customer-
// scoped routes then answer only for that customer: lists narrow to it, other customers are 404.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { ApiError } from '../../http/errorBody.js'

export const ON_BEHALF_OF_HEADER = 'x-on-behalf-of'
const CUSTOMER_ID = /^cus_[0-9a-z]{26}$/

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer the platform acts for (X-On-Behalf-Of), validated; undefined without the header. */
    onBehalfOf?: string
  }
}

export const onBehalfOf = fp(async (app: FastifyInstance, options: { db: Kysely<ReadDatabase> }) => {
  app.decorateRequest('onBehalfOf', undefined)
  // Registered after authenticate: runs once the principal is known, before idempotency and handlers.
  app.addHook('onRequest', async (request) => {
    const header = request.headers[ON_BEHALF_OF_HEADER]
    if (header === undefined || !request.principal) return
    const value = Array.isArray(header) ? header[0] : header
    if (value === undefined || !CUSTOMER_ID.test(value)) {
      throw new ApiError(400, 'X-On-Behalf-Of must be a customer id (cus_...)', 'invalid_on_behalf_of', [
        { field: 'X-On-Behalf-Of', message: 'not a customer id' },
      ])
    }
    const row = await options.db
      .selectFrom('customers')
      .select('id')
      .where('organization_id', '=', request.principal.organizationId)
      .where('id', '=', value)
      .executeTakeFirst()
    if (!row) throw new ApiError(404, `Customer ${value} named by X-On-Behalf-Of not found`, 'on_behalf_of_customer_not_found')
    request.onBehalfOf = value
    request.log = request.log.child({ onBehalfOf: value })
  })
})
