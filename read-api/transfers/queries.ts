// Reads of the transfers read model, always scoped to one organization and, with X-On-Behalf-Of,
// to the transfers that customer is the source or the destination customer of. Lists are newest
// first (ids sort by creation) and read one row past the page (the has_more probe). A page is its
// ids picked on an index (a deep offset never reads the rows it skips), then just those rows.
// "Either side" (the customerId filter, X-On-Behalf-Of) is a UNION of two range scans, one on each
// customer index, each stopping after the rows the page can need, instead of an OR the planner
// could only answer by reading and sorting every transfer of the customer
// (docs/explain-transfers.md).
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { type CursorQuery, inListOrder } from '../../http/pagination/cursorPage.js'
import { type OffsetOrCursorQuery, cursorOf, isOffsetMode } from '../../http/pagination/offsetOrCursor.js'
import { pageLimit, pageOffset } from '../../http/pagination/offsetPage.js'
import type { ItemText } from '../../http/pagination/pageText.js'
import type { OpenTransferState } from '../../domain/transfer/state.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, holdsSealedText, sealedTransferResource, sealedTransferState } from '../../projections/sealedColumns.js'
import { type TransferResource, toTransferResource } from '../../domain/transfer/resource.js'
import { startsWithPattern } from '../accounts/queries.js'
import type { TransferFilters } from './listQuery.js'

export type TransferScope = {
  organizationId: string
  /** X-On-Behalf-Of: only the transfers this customer sends or receives. */
  onBehalfOf: string | undefined
  /** An agent key: only the transfers this agent made. */
  agentId?: string | undefined
}

type Eb = ExpressionBuilder<ReadDatabase, 'transfers'>

const eitherSide = (eb: Eb, customerId: string) =>
  eb.or([eb('customer_id', '=', customerId), eb('destination_customer_id', '=', customerId)])

/** The customers a list must show either side of: X-On-Behalf-Of's and the customerId filter's. */
const eitherSideCustomers = (scope: TransferScope, filters: TransferFilters) => [
  ...new Set([scope.onBehalfOf, filters.customerId].filter((c): c is string => c !== undefined)),
]

/** The conditions of the scope and filters, but the either-side customers (each list adds them its way). */
function conditions(eb: Eb, scope: TransferScope, f: TransferFilters): Expression<SqlBool>[] {
  const all: Expression<SqlBool>[] = [eb('organization_id', '=', scope.organizationId)]
  const add = (condition: Expression<SqlBool>) => all.push(condition)
  if (scope.agentId !== undefined) add(eb('agent_id', '=', scope.agentId))
  if (f.id !== undefined) add(eb('id', 'like', startsWithPattern(f.id)))
  if (f.sourceCustomerId !== undefined) add(eb('customer_id', '=', f.sourceCustomerId))
  if (f.counterpartyId !== undefined) add(eb('counterparty_id', '=', f.counterpartyId))
  if (f.agentId !== undefined) add(eb('agent_id', '=', f.agentId))
  if (f.agentApprovalStatus !== undefined) add(eb('agent_approval_status', '=', f.agentApprovalStatus))
  if (f.clientReferenceId !== undefined) add(eb('client_reference_id', '=', f.clientReferenceId))
  if (f.flow !== undefined) add(eb('flow', '=', f.flow))
  if (f.status !== undefined) add(eb('status', '=', f.status))
  return all
}

export type TransferRow = { id: string; state: OpenTransferState }

async function opened(protection: DataProtection, rows: { id: string; customer_id: string; state: OpenTransferState }[]) {
  const states = await sealedTransferState.openMany(
    protection,
    rows.map((row) => ({ id: row.id, value: row.state, subject: row.customer_id })),
  )
  return rows.map((row, i) => ({ id: row.id, state: states[i]! }))
}

/** Whether a transfer of the organization names this counterparty or agent (on the column's partial index). */
export const transfersName =
  (db: Kysely<ReadDatabase>, organizationId: string, column: 'counterparty_id' | 'agent_id') =>
  async (id: string): Promise<boolean> =>
    (await db
      .selectFrom('transfers')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where(column, '=', id)
      .limit(1)
      .executeTakeFirst()) !== undefined

/** One transfer in the scope, its state opened; undefined when there is none (or it is another organization's). */
export async function findTransfer(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: TransferScope,
  id: string,
): Promise<TransferRow | undefined> {
  let query = db
    .selectFrom('transfers')
    .select(['id', 'customer_id', 'state'])
    .where('id', '=', id)
    .where('organization_id', '=', scope.organizationId)
  const { onBehalfOf, agentId } = scope
  if (onBehalfOf !== undefined) query = query.where((eb) => eitherSide(eb, onBehalfOf))
  if (agentId !== undefined) query = query.where('agent_id', '=', agentId)
  const row = await query.executeTakeFirst()
  return row ? (await opened(protection, [row]))[0] : undefined
}

/** Whether a cursor names a transfer the caller may read (in any status: a status filter's items move on). */
async function cursorVisible(db: Kysely<ReadDatabase>, scope: TransferScope, cursor: string): Promise<boolean> {
  let query = db.selectFrom('transfers').select('id').where('id', '=', cursor).where('organization_id', '=', scope.organizationId)
  const { onBehalfOf, agentId } = scope
  if (onBehalfOf !== undefined) query = query.where((eb) => eitherSide(eb, onBehalfOf))
  if (agentId !== undefined) query = query.where('agent_id', '=', agentId)
  return (await query.executeTakeFirst()) !== undefined
}

type Window = { size: number; offset: number; cursor: CursorQuery | undefined }

function windowOf(query: OffsetOrCursorQuery): Window {
  if (isOffsetMode(query)) return { size: pageLimit(query), offset: pageOffset(query), cursor: undefined }
  const cursor = cursorOf(query)
  return { size: cursor.page_size, offset: 0, cursor }
}

/** The page's ids (and the probe), in the direction the window walks. */
function pageIds(db: Kysely<ReadDatabase>, scope: TransferScope, filters: TransferFilters, w: Window) {
  const backwards = w.cursor?.ending_before !== undefined
  const direction = backwards ? 'asc' : 'desc'
  const [first, ...others] = eitherSideCustomers(scope, filters)
  const selected = (side?: 'customer_id' | 'destination_customer_id') =>
    db
      .selectFrom('transfers')
      .select('id')
      .where((eb) => {
        const all = conditions(eb, scope, filters)
        for (const customer of others) all.push(eitherSide(eb, customer))
        if (side && first !== undefined) all.push(eb(side, '=', first))
        if (w.cursor?.starting_after !== undefined) all.push(eb('id', '<', w.cursor.starting_after))
        if (w.cursor?.ending_before !== undefined) all.push(eb('id', '>', w.cursor.ending_before))
        return eb.and(all)
      })
      .orderBy('id', direction)
  const fetch = w.size + 1
  if (first === undefined) return selected().limit(fetch).offset(w.offset)
  // Each side stops after the rows the page can need; UNION lists a transfer the customer both sends and receives once.
  const reach = w.offset + fetch
  const union = db
    .selectFrom(selected('customer_id').limit(reach).as('s'))
    .select('s.id')
    .union(db.selectFrom(selected('destination_customer_id').limit(reach).as('d')).select('d.id'))
  return db.selectFrom(union.as('u')).select('u.id').orderBy('u.id', direction).limit(fetch).offset(w.offset)
}

/**
 * One page plus the probe row, in list order, each transfer as its resource's JSON text (the
 * stored resource, opened only when it holds a sealed value; made from the state for a row from
 * before migration 0019); undefined when the cursor names no transfer the caller may read.
 */
export async function listTransferTexts(
  db: Kysely<ReadDatabase>,
  protection: DataProtection,
  scope: TransferScope,
  filters: TransferFilters,
  query: OffsetOrCursorQuery,
): Promise<ItemText[] | undefined> {
  const w = windowOf(query)
  const cursorId = w.cursor?.starting_after ?? w.cursor?.ending_before
  const backwards = w.cursor?.ending_before !== undefined
  const [rows, visible] = await Promise.all([
    db
      .selectFrom(pageIds(db, scope, filters, w).as('page'))
      .innerJoin('transfers', 'transfers.id', 'page.id')
      .select([
        'transfers.id',
        'transfers.customer_id',
        sql<string | null>`transfers.resource::text`.as('resource_text'),
        sql<OpenTransferState | null>`CASE WHEN transfers.resource IS NULL THEN transfers.state END`.as('state'),
      ])
      .orderBy('transfers.id', backwards ? 'asc' : 'desc')
      .execute(),
    cursorId === undefined ? true : cursorVisible(db, scope, cursorId),
  ])
  if (!visible) return undefined
  const texts = await Promise.all(rows.map((row) => resourceText(protection, row)))
  return w.cursor ? inListOrder(texts, w.cursor) : texts
}

async function resourceText(
  protection: DataProtection,
  row: { id: string; customer_id: string; resource_text: string | null; state: OpenTransferState | null },
): Promise<ItemText> {
  if (row.resource_text !== null && !holdsSealedText(row.resource_text)) return { id: row.id, json: row.resource_text }
  if (row.resource_text !== null) {
    const sealed = JSON.parse(row.resource_text) as TransferResource
    return { id: row.id, json: JSON.stringify(await sealedTransferResource.open(protection, row.id, sealed, row.customer_id)) }
  }
  const [opened] = await sealedTransferState.openMany(protection, [{ id: row.id, value: row.state!, subject: row.customer_id }])
  return { id: row.id, json: JSON.stringify(toTransferResource(opened!)) }
}
