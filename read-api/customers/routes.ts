// Read routes of customers: list, read one, compliance checklist, associated persons and
// businesses, verification sessions. All scoped to the organization and to X-On-Behalf-Of.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import {
  associatedEntityResource,
  complianceResource,
  customerResource,
  toAssociatedResource,
  toComplianceResource,
  toCustomerResource,
  toSessionResource,
  verificationSessionResource,
} from '../../domain/customer/resource.js'
import type { Customer } from '../../domain/customer/state.js'
import { savedVerificationResource, toSavedVerificationResource } from '../../domain/customer/verificationView.js'
import { notFound } from '../../domain/errors.js'
import { CUSTOMER_TAGS, associatedEntityParams, customerIdNamedParams, customerIdParams, sessionParams } from '../../http/customerParams.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { toCursorPage, unknownCursor } from '../../http/pagination/cursorPage.js'
import { cursorOf, isOffsetMode } from '../../http/pagination/offsetOrCursor.js'
import { toOffsetPage } from '../../http/pagination/offsetPage.js'
import { type ItemText, pageText } from '../../http/pagination/pageText.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { customerListQuery, customerListResponse, listFilters } from './listQuery.js'
import { type Scope, findCustomer, listCustomersByCursor, listCustomersByOffset } from './queries.js'
import { principalOf } from '../../http/principal.js'

const scopeOf = (request: FastifyRequest): Scope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

export const customerReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  async function customerOr404(request: FastifyRequest, id: string): Promise<Customer> {
    const customer = await findCustomer(db, protection, scopeOf(request), id)
    if (!customer) throw notFound('Customer', id)
    return customer
  }

  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        tags: CUSTOMER_TAGS,
        summary: 'List customers (filters status, type, countryCode; sort; offset or cursor pagination)',
        headers: readHeaders,
        querystring: customerListQuery,
        response: { 200: customerListResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      const q = request.query
      // Items are their rows' stored JSON (queries.ts): the page is sent as the text the response schema describes.
      const send = (page: { data: readonly ItemText[] }) => reply.type('application/json; charset=utf-8').send(pageText(page) as never)
      if (isOffsetMode(q)) {
        const { rows, total } = await listCustomersByOffset(db, protection, scopeOf(request), q)
        return send(toOffsetPage(rows, total, q, (row) => row))
      }
      const page = cursorOf(q)
      const rows = await listCustomersByCursor(db, protection, scopeOf(request), q, page)
      if (!rows) throw unknownCursor(q)
      return send(toCursorPage(rows, page, { path: '/v1/customers', filters: listFilters(q) }, (row) => row))
    },
  )

  app.get(
    '/customers/:id',
    {
      schema: {
        operationId: 'getCustomer',
        tags: CUSTOMER_TAGS,
        summary: 'Read a customer',
        headers: readHeaders,
        params: customerIdParams,
        response: { 200: customerResource, ...errorResponses(404) },
      },
    },
    async (request) => toCustomerResource(await customerOr404(request, request.params.id)),
  )

  app.get(
    '/customers/:id/verification',
    {
      schema: {
        operationId: 'getCustomerVerification',
        tags: CUSTOMER_TAGS,
        summary: 'Read back the saved verification data (tax ids and government id numbers as their last four characters)',
        headers: readHeaders,
        params: customerIdParams,
        response: { 200: savedVerificationResource, ...errorResponses(404) },
      },
    },
    async (request) => toSavedVerificationResource(await customerOr404(request, request.params.id)),
  )

  app.get(
    '/customers/:id/compliance',
    {
      schema: {
        operationId: 'getCustomerCompliance',
        tags: CUSTOMER_TAGS,
        summary: 'Requirement checklist of a customer, each item SATISFIED, MISSING or NOT_APPLICABLE',
        headers: readHeaders,
        params: customerIdParams,
        response: { 200: complianceResource, ...errorResponses(404) },
      },
    },
    async (request) => toComplianceResource(await customerOr404(request, request.params.id), new Date()),
  )

  const entityList = z.object({ data: z.array(associatedEntityResource).describe('All of them (at most 50 per customer), oldest first') })
  for (const [path, entityType, label, listId, getId] of [
    ['associated_businesses', 'BUSINESS', 'associated businesses', 'listAssociatedBusinesses', 'getAssociatedBusiness'],
    ['associated_persons', 'INDIVIDUAL', 'associated persons', 'listAssociatedPersons', 'getAssociatedPerson'],
  ] as const) {
    app.get(
      `/customers/:customerId/${path}`,
      {
        schema: {
          operationId: listId,
          tags: CUSTOMER_TAGS,
          summary: `List the ${label} of a customer`,
          headers: readHeaders,
          params: customerIdNamedParams,
          response: { 200: entityList, ...errorResponses(404) },
        },
      },
      async (request) => {
        const c = await customerOr404(request, request.params.customerId)
        const now = new Date()
        return { data: c.associated.filter((e) => e.entityType === entityType).map((e) => toAssociatedResource(c, e, now)) }
      },
    )
    app.get(
      `/customers/:customerId/${path}/:entityId`,
      {
        schema: {
          operationId: getId,
          tags: CUSTOMER_TAGS,
          summary: `Read one of the ${label} of a customer`,
          headers: readHeaders,
          params: associatedEntityParams,
          response: { 200: associatedEntityResource, ...errorResponses(404) },
        },
      },
      async (request) => {
        const c = await customerOr404(request, request.params.customerId)
        const entity = c.associated.find((e) => e.id === request.params.entityId && e.entityType === entityType)
        if (!entity) throw notFound('Associated entity', request.params.entityId)
        return toAssociatedResource(c, entity, new Date())
      },
    )
  }

  const sessionList = z.object({
    data: z.array(verificationSessionResource).describe('All sessions of the customer (at most 200), oldest first'),
  })
  app.get(
    '/customers/:id/verification_sessions',
    {
      schema: {
        operationId: 'listVerificationSessions',
        tags: CUSTOMER_TAGS,
        summary: 'List the verification sessions of a customer',
        headers: readHeaders,
        params: customerIdParams,
        response: { 200: sessionList, ...errorResponses(404) },
      },
    },
    async (request) => {
      const c = await customerOr404(request, request.params.id)
      const now = new Date()
      return { data: c.sessions.map((s) => toSessionResource(c.id, s, now)) }
    },
  )

  app.get(
    '/customers/:id/verification_sessions/:sessionId',
    {
      schema: {
        operationId: 'getVerificationSession',
        tags: CUSTOMER_TAGS,
        summary: 'Read a verification session (status EXPIRED once past expiresAt)',
        headers: readHeaders,
        params: sessionParams,
        response: { 200: verificationSessionResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const c = await customerOr404(request, request.params.id)
      const session = c.sessions.find((s) => s.id === request.params.sessionId)
      if (!session) throw notFound('Verification session', request.params.sessionId)
      return toSessionResource(c.id, session, new Date())
    },
  )
}
