// Reads of the customers read model, always scoped to one organization (and to the X-On-Behalf-Of
// customer when there is one). The stored state is sealed: a customer is opened with its key, a
// page with one key lookup for all its customers.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type { Customer } from '../../domain/customer/state.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, listedCustomerState, sealedCustomerState } from '../../projections/sealedColumns.js'
import { type CursorQuery, inListOrder } from '../../http/pagination/cursorPage.js'
import { pageLimit, pageOffset } from '../../http/pagination/offsetPage.js'
import type { CustomerListQuery } from './listQuery.js'

export type Scope = { organizationId: string; onBehalfOf: string | undefined }
/** A listed customer: its id (the cursor) and state; the sort columns stay in Postgres (a Date per row costs CPU). */
type Row = { id: string; state: Customer }

/** The page's rows with what a list item shows of their states opened (one key lookup). */
async function opened(protection: DataProtection, rows: Row[]): Promise<Row[]> {
  const states = await listedCustomerState.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.state })),
  )
  return rows.map((row, i) => ({ id: row.id, state: states[i]! }))
}

export async function findCustomer(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: Scope,
  id: string,
): Promise<Customer | undefined> {
  if (scope.onBehalfOf !== undefined && scope.onBehalfOf !== id) return undefined
  const row = await db
    .selectFrom('customers')
    .select('state')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row && sealedCustomerState.open(protection, id, row.state)
}

function filtered(db: Kysely<ReadDatabase>, scope: Scope, q: CustomerListQuery) {
  let query = db.selectFrom('customers').where('organization_id', '=', scope.organizationId)
  if (scope.onBehalfOf !== undefined) query = query.where('id', '=', scope.onBehalfOf)
  if (q.status !== undefined) query = query.where('status', '=', q.status)
  if (q.type !== undefined) query = query.where('type', '=', q.type)
  if (q.countryCode !== undefined) query = query.where('country_code', '=', q.countryCode)
  return query
}

const sortColumn = (q: CustomerListQuery): 'created_at' | 'customer_name' => (q.sort.endsWith('createdAt') ? 'created_at' : 'customer_name')
const descending = (q: CustomerListQuery) => q.sort.startsWith('-')

export async function listCustomersByOffset(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: Scope,
  q: CustomerListQuery,
): Promise<{ rows: Row[]; total: number }> {
  const direction = descending(q) ? 'desc' : 'asc'
  const [rows, count] = await Promise.all([
    filtered(db, scope, q)
      .select(['id', 'state'])
      .orderBy(sortColumn(q), direction)
      .orderBy('id', direction)
      .limit(pageLimit(q))
      .offset(pageOffset(q))
      .execute(),
    filtered(db, scope, q)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: await opened(protection, rows), total: Number(count.total) }
}

/** Cursor page plus one row (the has_more probe), in the sort's order (inListOrder); undefined for an unknown cursor. */
export async function listCustomersByCursor(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: Scope,
  q: CustomerListQuery,
  page: CursorQuery,
): Promise<Row[] | undefined> {
  const column = sortColumn(q)
  const cursorId = page.starting_after ?? page.ending_before
  const backwards = page.ending_before !== undefined
  // Walking backwards reverses the order; the page is flipped back below.
  const desc = descending(q) !== backwards
  let query: SelectQueryBuilder<ReadDatabase, 'customers', Row> = filtered(db, scope, q).select(['id', 'state'])
  if (cursorId !== undefined) {
    const cursor = await db
      .selectFrom('customers')
      .select(['created_at', 'customer_name'])
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', cursorId)
      .executeTakeFirst()
    if (!cursor) return undefined
    const value = cursor[column]
    // Row comparison (sort key, id): a keyset that stays exact when sort keys repeat.
    query = query.where((eb) => eb(eb.refTuple(column, 'id'), desc ? '<' : '>', eb.tuple(sql.val(value), cursorId)))
  }
  const rows = await query
    .orderBy(column, desc ? 'desc' : 'asc')
    .orderBy('id', desc ? 'desc' : 'asc')
    .limit(page.page_size + 1)
    .execute()
  return inListOrder(await opened(protection, rows), page)
}
