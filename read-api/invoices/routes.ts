// Read routes of invoices: read one, the cursor list (filters status, customerId, paymentState, overdue,
// due-date range), and the hosted page (HTML). Another organization's invoice, or another customer's
// under X-On-Behalf-Of, is a 404; a deleted draft is gone.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { notFound } from '../../domain/errors.js'
import { PAYMENT_STATES } from '../../domain/invoice/paymentState.js'
import { invoiceResource, toInvoiceResource } from '../../domain/invoice/resource.js'
import { INVOICE_STATUSES } from '../../domain/invoice/statuses.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { INVOICE_TAGS, invoiceParams } from '../../http/invoiceParams.js'
import { cursorPageSchema, cursorQuery, toCursorPage, unknownCursor } from '../../http/pagination/cursorPage.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../projections/sealedColumns.js'
import { assertFilterIdsKnown, customerOf } from '../filterIds.js'
import { hostedInvoicePage } from './hostedPage.js'
import { type InvoiceScope, findInvoice, invoiceFixedRoutes, isInvoiceCursor, listInvoices } from './queries.js'

const date = z.iso.date()

export const invoiceListQuery = cursorQuery.extend({
  status: z.enum(INVOICE_STATUSES).optional(),
  customerId: z.string().max(64).optional().describe('Only the invoices of this customer (cus_), the payee'),
  paymentState: z.enum(PAYMENT_STATES).optional(),
  overdue: z.enum(['true', 'false']).optional().describe('true: OPEN invoices past their due date; false: every other'),
  dueDateFrom: date.optional().describe('Due on or after this day (YYYY-MM-DD)'),
  dueDateTo: date.optional().describe('Due on or before this day (YYYY-MM-DD)'),
})

const scopeOf = (request: FastifyRequest): InvoiceScope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

/** The list's filters as its page links repeat them, in this order. */
function filterParams(q: z.infer<typeof invoiceListQuery>): URLSearchParams {
  const params = new URLSearchParams()
  for (const key of ['status', 'customerId', 'paymentState', 'overdue', 'dueDateFrom', 'dueDateTo'] as const) {
    const value = q[key]
    if (value !== undefined) params.set(key, value)
  }
  return params
}

export const invoiceReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; protection: DataProtection }> = async (
  app,
  { db, protection },
) => {
  const invoiceOr404 = async (request: FastifyRequest, id: string) => {
    const found = await findInvoice(db, protection, scopeOf(request), id)
    if (!found) throw notFound('Invoice', id)
    return found
  }

  app.get(
    '/invoices',
    {
      schema: {
        operationId: 'listInvoices',
        tags: INVOICE_TAGS,
        summary: 'List invoices, newest first (cursor paging)',
        description:
          'Filters: status, customerId, paymentState, overdue, dueDateFrom and dueDateTo (inclusive). 404 when customerId names ' +
          'no customer of the organization; 422 invalid_cursor when a cursor names no invoice of the organization.',
        headers: readHeaders,
        querystring: invoiceListQuery,
        response: { 200: cursorPageSchema(invoiceResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const q = request.query
      const scope = scopeOf(request)
      await assertFilterIdsKnown([
        { parameter: 'customerId', what: 'Customer', id: q.customerId, known: customerOf(db, scope.organizationId) },
      ])
      const cursor = q.starting_after ?? q.ending_before
      if (cursor !== undefined && !(await isInvoiceCursor(db, scope, cursor))) throw unknownCursor(q)
      const filters = { ...q, overdue: q.overdue === undefined ? undefined : q.overdue === 'true' }
      const rows = await listInvoices(db, protection, scope, filters, q)
      return toCursorPage(rows, q, { path: '/v1/invoices', filters: filterParams(q) }, (row) => row.resource)
    },
  )

  app.get(
    '/invoices/:id',
    {
      schema: {
        operationId: 'getInvoice',
        tags: INVOICE_TAGS,
        summary: 'Read an invoice',
        description: 'Status and payment state side by side, the derived overdue flag, the payment instructions once OPEN, the payments.',
        headers: readHeaders,
        params: invoiceParams,
        response: { 200: invoiceResource, ...errorResponses(404) },
      },
    },
    async (request) => toInvoiceResource(await invoiceOr404(request, request.params.id)),
  )

  app.get(
    '/invoices/:id/hosted',
    {
      schema: {
        operationId: 'getHostedInvoicePage',
        tags: INVOICE_TAGS,
        summary: 'The hosted invoice page (HTML)',
        description:
          'What the payer owes and how to pay: the payment reference and the coordinates of the customer’s fixed routes that pay ' +
          'into the invoice’s balance account in its currency (or that account’s id when there is none). Behind the API key, ' +
          'like every route: the integrator serves it to the payer.',
        headers: readHeaders,
        params: invoiceParams,
        response: {
          200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const invoice = await invoiceOr404(request, request.params.id)
      const routes = invoice.status === 'OPEN' ? await invoiceFixedRoutes(db, protection, invoice) : []
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'no-store')
        .send(hostedInvoicePage(toInvoiceResource(invoice), routes))
    },
  )
}
