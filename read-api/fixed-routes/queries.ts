// Reads of the fixed routes read model, always scoped to one organization and, with X-On-Behalf-Of,
// to that customer's routes. The stored resource's deposit coordinates are opened (a page: one key
// lookup for all its rows); the sweep target is joined after (expand.ts).
import type { Kysely } from 'kysely'
import type { StoredFixedRoute } from '../../projections/fixedRouteSchema.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, sealedFixedRouteResource } from '../../projections/sealedColumns.js'
import type { FixedRouteListQuery } from './listQuery.js'

export type FixedRouteScope = {
  organizationId: string
  /** X-On-Behalf-Of: only this customer's routes exist for the request. */
  onBehalfOf: string | undefined
}

type Row = { id: string; customer_id: string; resource: StoredFixedRoute }

function opened(protection: DataProtection, rows: Row[]): Promise<StoredFixedRoute[]> {
  return sealedFixedRouteResource.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.resource, subject: row.customer_id })),
  )
}

/** One route in the scope, opened; undefined when there is none (another organization's, another customer's, not a route). */
export async function findFixedRoute(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: FixedRouteScope,
  id: string,
): Promise<StoredFixedRoute | undefined> {
  let query = db
    .selectFrom('fixed_routes')
    .select(['id', 'customer_id', 'resource'])
    .where('id', '=', id)
    .where('organization_id', '=', scope.organizationId)
  if (scope.onBehalfOf !== undefined) query = query.where('customer_id', '=', scope.onBehalfOf)
  const row = await query.executeTakeFirst()
  return row ? (await opened(protection, [row]))[0] : undefined
}

/** How many routes a customer holds (the write side's per-customer limit). */
export async function countCustomerFixedRoutes(db: Kysely<ReadDatabase>, organizationId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('fixed_routes')
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** A page of one customer's routes, newest first, and how many it holds (the caller checked the customer is visible). */
export async function listCustomerFixedRoutes(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  organizationId: string,
  customerId: string,
  page: FixedRouteListQuery,
): Promise<{ routes: StoredFixedRoute[]; total: number }> {
  const customerRoutes = db.selectFrom('fixed_routes').where('organization_id', '=', organizationId).where('customer_id', '=', customerId)
  const [rows, count] = await Promise.all([
    customerRoutes
      .select(['id', 'customer_id', 'resource'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    customerRoutes.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { routes: await opened(protection, rows), total: Number(count.total) }
}
