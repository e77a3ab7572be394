// Read routes of accounts: read one, the organization's list, a customer's list, and the virtual
// accounts sweeping to an account. All scoped to the organization and to X-On-Behalf-Of.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { accountIdParams } from '../../http/accountParams.js'
import { idParam } from '../../http/idParam.js'
import { unknownCursor } from '../../http/pagination/cursorPage.js'
import { listWindowOf, offsetShapedListSchema } from '../../http/pagination/offsetShapedList.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { foldBracketAliases } from './bracketAliases.js'
import { expandAccounts, expandedAccountResource } from './expand.js'
import {
  type AccountListQuery,
  type CustomerAccountListQuery,
  accountListQuery,
  accountReadQuery,
  customerAccountListQuery,
  virtualAccountListQuery,
} from './listQuery.js'
import { anyOf, assertFilterIdsKnown, counterpartyOf, customerOf } from '../filterIds.js'
import { type AccountScope, accountsNameCounterparty, customerVisible, findAccount, listAccounts } from './queries.js'

const TAGS = ['Accounts']
const customerParams = idParam('customerId', 'cus_', 'Customer')
const LIST_PARAMS = ['currencyCodes', 'paymentRails', 'expand'] as const
const VIRTUAL_TYPES = ['VIRTUAL_BANK', 'VIRTUAL_WALLET'] as const

const PAGING =
  'Offset mode: limit (1-1000, default 500) and offset (0-100000). Cursor mode: page_size (1-1000, default 500) and starting_after ' +
  '(the id of the last item of the previous page). One mode per request (400 otherwise). Both answer data, total (items matching ' +
  'the filters), limit (the page size) and offset (items before this page). Order: by id, descending (newest first within each ' +
  'id prefix). 422 invalid_cursor: starting_after names no account of this list.'
const FILTERS =
  'Filters combine with AND; currencyCodes and paymentRails match an account holding any of the values given. A value outside ' +
  'its enum, a boolean other than true or false, or a bound crossed is a 400 naming the parameter. customerId and ' +
  "counterpartyId must name a customer or counterparty of the organization: 404 otherwise (another organization's too)."

const scopeOf = (request: FastifyRequest): AccountScope => ({
  organizationId: principalOf(request).organizationId,
  customerId: request.onBehalfOf,
})

export const accountReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  const deps = { db, protection }
  /** A counterparty of the organization, or one its accounts still name (a deleted counterparty's closed accounts). */
  const counterpartyFilter = (organizationId: string, id: string | undefined) => ({
    parameter: 'counterpartyId',
    what: 'Counterparty',
    id,
    known: anyOf(counterpartyOf(db, organizationId), accountsNameCounterparty(db, organizationId)),
  })
  const listResponse = { 200: offsetShapedListSchema(expandedAccountResource) }

  /** One page of the accounts a scope sees, with the query's filters, paging and expand (the two list routes). */
  async function listPage(scope: AccountScope, query: AccountListQuery | CustomerAccountListQuery) {
    const { expand, limit, offset, page_size, starting_after, ...filters } = query
    const paging = { limit, offset, page_size, starting_after }
    const window = listWindowOf(paging)
    const page = await listAccounts(db, scope, filters, window)
    if (!page) throw unknownCursor(paging)
    return {
      data: await expandAccounts(deps, scope, page.data, expand ?? []),
      total: page.total,
      limit: window.size,
      offset: page.offset,
    }
  }

  app.get(
    '/accounts',
    {
      preValidation: foldBracketAliases(LIST_PARAMS),
      schema: {
        operationId: 'listAccounts',
        tags: TAGS,
        summary: "List the organization's accounts of every kind (filters, expand, offset or cursor paging)",
        description: `${FILTERS} With X-On-Behalf-Of, only that customer's accounts. ${PAGING}`,
        headers: readHeaders,
        querystring: accountListQuery,
        response: { ...listResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      await assertFilterIdsKnown([
        { parameter: 'customerId', what: 'Customer', id: request.query.customerId, known: customerOf(db, scope.organizationId) },
        counterpartyFilter(scope.organizationId, request.query.counterpartyId),
      ])
      return listPage(scope, request.query)
    },
  )

  app.get(
    '/customers/:customerId/accounts',
    {
      preValidation: foldBracketAliases(LIST_PARAMS),
      schema: {
        operationId: 'listCustomerAccounts',
        tags: TAGS,
        summary: "List one customer's accounts (the same filters, expand and paging as GET /v1/accounts)",
        description: `404 for a customer of another organization, or another customer than X-On-Behalf-Of's. ${FILTERS} ${PAGING}`,
        headers: readHeaders,
        params: customerParams,
        querystring: customerAccountListQuery,
        response: { ...listResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { customerId } = request.params
      const outer = scopeOf(request)
      if (!(await customerVisible(db, outer, customerId))) throw notFound('Customer', customerId)
      await assertFilterIdsKnown([counterpartyFilter(outer.organizationId, request.query.counterpartyId)])
      return listPage({ ...outer, customerId }, request.query)
    },
  )

  app.get(
    '/accounts/:id',
    {
      preValidation: foldBracketAliases(['expand']),
      schema: {
        operationId: 'getAccount',
        tags: TAGS,
        summary: 'Read an account of any kind (acc_, vba_, inw_, ewa_, eba_, vwa_)',
        description:
          "404 for an unknown account, another organization's, or (with X-On-Behalf-Of) one that is not that customer's. " +
          'Bank account numbers and IBANs show their last four characters only.',
        headers: readHeaders,
        params: accountIdParams,
        querystring: accountReadQuery,
        response: { 200: expandedAccountResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const account = await findAccount(db, scope, request.params.id)
      if (!account) throw notFound('Account', request.params.id)
      const [expanded] = await expandAccounts(deps, scope, [account], request.query.expand ?? [])
      return expanded ?? account
    },
  )

  app.get(
    '/accounts/:id/virtual-accounts',
    {
      schema: {
        operationId: 'listVirtualAccounts',
        tags: TAGS,
        summary: 'List the virtual bank accounts and virtual wallets that sweep to the account {id}',
        description: `404 when {id} is not an account the caller can read (as GET /v1/accounts/{id}). ${PAGING}`,
        headers: readHeaders,
        params: accountIdParams,
        querystring: virtualAccountListQuery,
        response: { ...listResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const { id } = request.params
      if (!(await findAccount(db, scope, id))) throw notFound('Account', id)
      const window = listWindowOf(request.query)
      const page = await listAccounts(db, scope, { sweepTargetAccountId: id, types: VIRTUAL_TYPES }, window)
      if (!page) throw unknownCursor(request.query)
      return { data: page.data, total: page.total, limit: window.size, offset: page.offset }
    },
  )
}
