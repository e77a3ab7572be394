// Reads of the invoices read model, always scoped to one organization and, with X-On-Behalf-Of, to that
// customer's invoices. The stored state's payer is opened (a page: one key lookup for all its rows) and
// the resource made from it.
import type { Kysely } from 'kysely'
import { toInvoiceResource, type InvoiceResource } from '../../domain/invoice/resource.js'
import type { ExistingInvoice } from '../../domain/invoice/state.js'
import type { CursorQuery } from '../../http/pagination/cursorPage.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, sealedFixedRouteResource, sealedInvoiceState } from '../../projections/sealedColumns.js'
import { idCursorPage } from '../sql/idCursorPage.js'

export const INVOICE_READ_LIMITS = {
  /** Fixed routes whose coordinates the hosted page shows (a customer holds few into one account). */
  maxPaymentRoutes: 10,
} as const

export type InvoiceScope = { organizationId: string; onBehalfOf: string | undefined }

export type InvoiceFilters = {
  status?: string | undefined
  customerId?: string | undefined
  paymentState?: string | undefined
  overdue?: boolean | undefined
  dueDateFrom?: string | undefined
  dueDateTo?: string | undefined
}

type Row = { id: string; customer_id: string; state: ExistingInvoice }

async function opened(protection: DataProtection, rows: Row[]): Promise<ExistingInvoice[]> {
  return sealedInvoiceState.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.state, subject: row.customer_id })),
  )
}

function scoped(db: Kysely<ReadDatabase>, scope: InvoiceScope) {
  let query = db.selectFrom('invoices').where('organization_id', '=', scope.organizationId)
  if (scope.onBehalfOf !== undefined) query = query.where('customer_id', '=', scope.onBehalfOf)
  return query
}

/** One invoice in the scope, opened; undefined when there is none. */
export async function findInvoice(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: InvoiceScope,
  id: string,
): Promise<ExistingInvoice | undefined> {
  const row = await scoped(db, scope).select(['id', 'customer_id', 'state']).where('id', '=', id).executeTakeFirst()
  return row ? (await opened(protection, [row]))[0] : undefined
}

/** Whether the cursor names an invoice of this list (its scope and filters aside: a cursor is any of the organization's). */
export async function isInvoiceCursor(db: Kysely<ReadDatabase>, scope: InvoiceScope, id: string): Promise<boolean> {
  return (await scoped(db, scope).select('id').where('id', '=', id).executeTakeFirst()) !== undefined
}

/** A cursor page of the scope's invoices, newest first, with the filters; rows in the page builder's shape. */
export async function listInvoices(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: InvoiceScope,
  filters: InvoiceFilters,
  page: CursorQuery,
): Promise<{ id: string; resource: InvoiceResource }[]> {
  let query = scoped(db, scope).select(['id', 'customer_id', 'state'])
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  if (filters.customerId !== undefined) query = query.where('customer_id', '=', filters.customerId)
  if (filters.paymentState !== undefined) query = query.where('payment_state', '=', filters.paymentState)
  if (filters.overdue !== undefined) query = query.where('overdue', '=', filters.overdue)
  if (filters.dueDateFrom !== undefined) query = query.where('due_date', '>=', filters.dueDateFrom)
  if (filters.dueDateTo !== undefined) query = query.where('due_date', '<=', filters.dueDateTo)
  const rows = await idCursorPage(query, page)
  const states = await opened(protection, rows)
  return rows.map((row, i) => ({ id: row.id, resource: toInvoiceResource(states[i]!) }))
}

/** The customer's fixed routes that pay into the invoice's balance account in its currency: the coordinates a payer uses. */
export async function invoiceFixedRoutes(db: Kysely<ReadDatabase>, protection: DataProtection, invoice: ExistingInvoice) {
  const rows = await db
    .selectFrom('fixed_routes')
    .select(['id', 'customer_id', 'resource'])
    .where('organization_id', '=', invoice.organizationId)
    .where('customer_id', '=', invoice.customerId)
    .where('sweep_target_account_id', '=', invoice.balanceAccountId)
    .where('status', '=', 'ACTIVE')
    .orderBy('id')
    .limit(INVOICE_READ_LIMITS.maxPaymentRoutes)
    .execute()
  const routes = await sealedFixedRouteResource.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.resource, subject: row.customer_id })),
  )
  return routes.filter((route) => route.sourceAccount.sourceCurrency === invoice.currency)
}
