// Read routes of transfers: the organization's list (filters, expand, offset or cursor paging) and
// one transfer, both scoped to the organization and to X-On-Behalf-Of (a customer sees the
// transfers it sends or receives). The resource is made from the stored state at read time.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { type TransferResource, toTransferResource } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { unknownCursor } from '../../http/pagination/cursorPage.js'
import { linkedPageSchema, toLinkedPage } from '../../http/pagination/linkedPage.js'
import { MAX_LIST_OFFSET } from '../../http/pagination/offsetPage.js'
import { pageText } from '../../http/pagination/pageText.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { foldBracketAliases } from '../accounts/bracketAliases.js'
import { expandTransfers, expandedTransferResource } from './expand.js'
import { linkFilters, transferListQuery, transferReadQuery } from './listQuery.js'
import { anyOf, assertFilterIdsKnown, counterpartyOf, customerOf } from '../filterIds.js'
import { type TransferScope, findTransfer, listTransferTexts, transfersName } from './queries.js'

const TAGS = ['Transfers']
const LIST_PATH = '/v1/transfers'

const PAGING =
  `Offset mode: limit (1-1000, default 50) and offset (0-${MAX_LIST_OFFSET}). Cursor mode (the default): page_size (1-1000, ` +
  'default 50) and starting_after (the id of the last item of the previous page: older items follow) or ending_before (the id ' +
  'of the first item of the next page: newer items precede). One mode per request (400 otherwise). Both modes answer has_more, ' +
  "page_size, url (the list's path), data, page_next and page_prev (the neighbouring pages in the same mode, or null; past the " +
  'offset bound page_next continues by cursor). Order: newest first (by id). 422 invalid_cursor: the cursor names no ' +
  'transfer the caller can read (a transfer that has left a status filter is still a valid cursor).'
const FILTERS =
  'Filters combine with AND: id (a tfr_ id prefix), sourceCustomerId, customerId (source or destination customer), ' +
  'counterpartyId, agentId, agentApprovalStatus, clientReferenceId (exact), flow, status. A value outside its enum or a bound ' +
  'crossed is a 400 naming the parameter. sourceCustomerId, customerId, counterpartyId and agentId must name one of the ' +
  "organization's (or, for a counterparty or agent, one its transfers name): 404 otherwise, another organization's id too."

const scopeOf = (request: FastifyRequest): TransferScope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
  agentId: principalOf(request).agent?.agentId,
})

export const transferReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  const deps = { db, protection }

  app.get(
    '/transfers',
    {
      preValidation: foldBracketAliases(['expand']),
      schema: {
        operationId: 'listTransfers',
        tags: TAGS,
        summary: "List the organization's transfers (filters, expand, offset or cursor paging)",
        description:
          `${FILTERS} With X-On-Behalf-Of, only the transfers that customer sends or receives; with an agent key, only the ` +
          `transfers its agent made. ${PAGING}`,
        headers: readHeaders,
        querystring: transferListQuery,
        response: { 200: linkedPageSchema(expandedTransferResource), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const q = request.query
      const scope = scopeOf(request)
      const { organizationId } = scope
      const customer = customerOf(db, organizationId)
      await assertFilterIdsKnown([
        { parameter: 'sourceCustomerId', what: 'Customer', id: q.sourceCustomerId, known: customer },
        { parameter: 'customerId', what: 'Customer', id: q.customerId, known: customer },
        {
          parameter: 'counterpartyId',
          what: 'Counterparty',
          id: q.counterpartyId,
          known: anyOf(counterpartyOf(db, organizationId), transfersName(db, organizationId, 'counterparty_id')),
        },
        // No agent resource exists yet: an agent is known by the transfers it made.
        { parameter: 'agentId', what: 'Agent', id: q.agentId, known: transfersName(db, organizationId, 'agent_id') },
      ])
      const texts = await listTransferTexts(db, protection, scope, q, q)
      if (!texts) throw unknownCursor(q)
      const page = toLinkedPage(texts, q, { path: LIST_PATH, filters: linkFilters(q) })
      if ((q.expand ?? []).length === 0) {
        // Without expansions a page is its rows' stored JSON joined (the same resource, not made again).
        // JSON text the response schema describes, sent as it is: fastify skips serializing a string.
        return reply.type('application/json; charset=utf-8').send(pageText(page) as never)
      }
      const resources = page.data.map((t) => JSON.parse(t.json) as TransferResource)
      const data = await expandTransfers(deps, scope, resources, q.expand ?? [])
      return { ...page, data }
    },
  )

  app.get(
    '/transfers/:id',
    {
      preValidation: foldBracketAliases(['expand']),
      schema: {
        operationId: 'getTransfer',
        tags: TAGS,
        summary: 'Read a transfer (with the same expand as the list)',
        description:
          "404 for an unknown transfer, another organization's, or (with X-On-Behalf-Of) one that customer neither sends nor " +
          'receives, or (with an agent key) one its agent did not make. The remitter’s account number shows its last four ' +
          'characters only.',
        headers: readHeaders,
        params: idParam('id', 'tfr_', 'Transfer'),
        querystring: transferReadQuery,
        response: { 200: expandedTransferResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const row = await findTransfer(db, protection, scope, request.params.id)
      if (!row) throw notFound('Transfer', request.params.id)
      const [expanded] = await expandTransfers(deps, scope, [toTransferResource(row.state)], request.query.expand ?? [])
      return expanded!
    },
  )
}
