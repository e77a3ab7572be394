// Reads of the customers read model, always scoped to one organization (and to the X-On-Behalf-Of
// customer when there is one). The stored state is sealed: a customer is opened with its key, a
// page with one key lookup for all its customers. A list item is the row's stored resource as JSON
// text, opened only when it holds a sealed value (a phone), made from the state for a row from
// before migration 0021.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import { type CustomerResource, toCustomerResource } from '../../domain/customer/resource.js'
import type { Customer } from '../../domain/customer/state.js'
import type { ReadDatabase } from '../../projections/schema.js'
import {
  type DataProtection,
  holdsSealedText,
  listedCustomerState,
  sealedCustomerResource,
  sealedCustomerState,
} from '../../projections/sealedColumns.js'
import { type CursorQuery, inListOrder } from '../../http/pagination/cursorPage.js'
import { pageLimit, pageOffset } from '../../http/pagination/offsetPage.js'
import type { ItemText } from '../../http/pagination/pageText.js'
import type { CustomerListQuery } from './listQuery.js'

export type Scope = { organizationId: string; onBehalfOf: string | undefined }
/** A listed row: its id (the cursor) and stored resource, or its state for a row from before 0021; the sort columns stay in Postgres. */
type Row = { id: string; resource_text: string | null; state: Customer | null }

/** The page's items as JSON texts: stored ones as they are, the others opened (one key lookup each kind) and serialized. */
async function itemTexts(protection: DataProtection, rows: Row[]): Promise<ItemText[]> {
  const texts = new Map<string, string>()
  const sealed: { id: string; value: CustomerResource }[] = []
  const states: { id: string; value: Customer }[] = []
  for (const row of rows) {
    if (row.resource_text === null) states.push({ id: row.id, value: row.state! })
    else if (holdsSealedText(row.resource_text)) sealed.push({ id: row.id, value: JSON.parse(row.resource_text) as CustomerResource })
    else texts.set(row.id, row.resource_text)
  }
  const [resources, opened] = await Promise.all([
    sealedCustomerResource.openMany(protection, sealed),
    listedCustomerState.openMany(protection, states),
  ])
  sealed.forEach((item, i) => texts.set(item.id, JSON.stringify(resources[i])))
  states.forEach((item, i) => texts.set(item.id, JSON.stringify(toCustomerResource(opened[i]!))))
  return rows.map((row) => ({ id: row.id, json: texts.get(row.id)! }))
}

function listed(query: ReturnType<typeof filtered>) {
  return query.select([
    'id',
    sql<string | null>`resource::text`.as('resource_text'),
    sql<Customer | null>`CASE WHEN resource IS NULL THEN state END`.as('state'),
  ])
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
): Promise<{ rows: ItemText[]; total: number }> {
  const direction = descending(q) ? 'desc' : 'asc'
  const [rows, count] = await Promise.all([
    listed(filtered(db, scope, q))
      .orderBy(sortColumn(q), direction)
      .orderBy('id', direction)
      .limit(pageLimit(q))
      .offset(pageOffset(q))
      .execute(),
    filtered(db, scope, q)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows: await itemTexts(protection, rows), total: Number(count.total) }
}

/** Cursor page plus one row (the has_more probe), in the sort's order (inListOrder); undefined for an unknown cursor. */
export async function listCustomersByCursor(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: Scope,
  q: CustomerListQuery,
  page: CursorQuery,
): Promise<ItemText[] | undefined> {
  const column = sortColumn(q)
  const cursorId = page.starting_after ?? page.ending_before
  const backwards = page.ending_before !== undefined
  // Walking backwards reverses the order; the page is flipped back below.
  const desc = descending(q) !== backwards
  let query: SelectQueryBuilder<ReadDatabase, 'customers', Row> = listed(filtered(db, scope, q))
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
  return inListOrder(await itemTexts(protection, rows), page)
}
