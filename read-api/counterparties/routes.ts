// Read routes of counterparties: read one, list (filters customerId and beneficiaryType; offset or
// cursor paging as the spec's account list).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { BENEFICIARY_TYPES } from '../../domain/counterparty/enums.js'
import { counterpartyResource } from '../../domain/counterparty/resource.js'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { unknownCursor } from '../../http/pagination/cursorPage.js'
import { listWindowOf, offsetShapedListQuery, offsetShapedListSchema } from '../../http/pagination/offsetShapedList.js'
import { principalOf } from '../../http/principal.js'
import { assertFilterIdsKnown, customerOf } from '../filterIds.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { type CounterpartyScope, findCounterparty, listCounterparties } from './queries.js'

const TAGS = ['Counterparties']
const counterpartyParams = idParam('id', 'cp_', 'Counterparty')

export const counterpartyListQuery = offsetShapedListQuery({
  customerId: z.string().max(64).optional().describe('Only the counterparties of this customer (cus_)'),
  beneficiaryType: z.enum(BENEFICIARY_TYPES).optional().describe('Only INDIVIDUAL or only BUSINESS counterparties'),
})

const scopeOf = (request: FastifyRequest): CounterpartyScope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

export const counterpartyReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  app.get(
    '/counterparties',
    {
      schema: {
        operationId: 'listCounterparties',
        tags: TAGS,
        summary: 'List counterparties, newest first (filters customerId, beneficiaryType; offset or cursor paging)',
        description:
          'Offset mode: limit (1-1000, default 500) and offset. Cursor mode: page_size (1-1000, default 500) and starting_after. ' +
          'Both answer data, total, limit, offset. 400: a parameter out of bounds or both modes at once; 404: customerId names no ' +
          "customer of the organization (another organization's too); 422: starting_after names no counterparty of this list " +
          '(invalid_cursor).',
        headers: readHeaders,
        querystring: counterpartyListQuery,
        response: { 200: offsetShapedListSchema(counterpartyResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const q = request.query
      const scope = scopeOf(request)
      await assertFilterIdsKnown([
        { parameter: 'customerId', what: 'Customer', id: q.customerId, known: customerOf(db, scope.organizationId) },
      ])
      const window = listWindowOf(q)
      const page = await listCounterparties(db, protection, scope, q, window)
      if (!page) throw unknownCursor(q)
      return { data: page.data, total: page.total, limit: window.size, offset: page.offset }
    },
  )

  app.get(
    '/counterparties/:id',
    {
      schema: {
        operationId: 'getCounterparty',
        tags: TAGS,
        summary: 'Read a counterparty',
        description: "404 for an unknown or deleted counterparty, another organization's, or another customer's with X-On-Behalf-Of.",
        headers: readHeaders,
        params: counterpartyParams,
        response: { 200: counterpartyResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await findCounterparty(db, protection, scopeOf(request), request.params.id)
      if (!found) throw notFound('Counterparty', request.params.id)
      return found
    },
  )
}
