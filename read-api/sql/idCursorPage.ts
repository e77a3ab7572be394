// One cursor page of a list ordered by id, newest first (ids sort by creation), plus the has_more
// probe: after starting_after the older rows; before ending_before the nearest newer ones, read
// upwards and put back in the list's order (inListOrder). The caller's query brings the scope and
// filters, and checks the cursor itself (what counts as a known cursor differs by list).
import { type SelectQueryBuilder, sql } from 'kysely'
import { type CursorQuery, inListOrder } from '../../http/pagination/cursorPage.js'

export async function idCursorPage<DB, TB extends keyof DB, Row>(
  scoped: SelectQueryBuilder<DB, TB, Row>,
  query: CursorQuery,
): Promise<Row[]> {
  const id = sql.ref<string>('id')
  const limit = query.page_size + 1
  if (query.starting_after !== undefined) return scoped.where(id, '<', query.starting_after).orderBy(id, 'desc').limit(limit).execute()
  if (query.ending_before !== undefined)
    return inListOrder(await scoped.where(id, '>', query.ending_before).orderBy(id, 'asc').limit(limit).execute(), query)
  return scoped.orderBy(id, 'desc').limit(limit).execute()
}
