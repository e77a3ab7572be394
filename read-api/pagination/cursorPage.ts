// Cursor pagination in the spec's list shape: { has_more, page_size, url, data, page_next,
// page_prev }. Ids sort by creation, so an id is the cursor. Newest first.
import { z } from 'zod'
import { type DomainError, invalid } from '../../domain/errors.js'

export const PAGE_LIMITS = { min: 1, max: 1_000, default: 50 } as const

export const cursorQuery = z.object({
  page_size: z.coerce.number().int().min(PAGE_LIMITS.min).max(PAGE_LIMITS.max).default(PAGE_LIMITS.default).describe('Items per page, 1-1000, default 50'),
  starting_after: z.string().max(64).optional().describe('Cursor: id of the last item of the previous page (older items follow)'),
  ending_before: z.string().max(64).optional().describe('Cursor: id of the first item of the next page (newer items precede)'),
})

export type CursorQuery = z.infer<typeof cursorQuery>

/**
 * The one answer of every cursor list to a cursor that names no item of it (another
 * organization's id, a made-up one): 422 invalid_cursor, never an empty 200 page that reads like
 * the end of the list.
 */
export function unknownCursor(query: { starting_after?: string | undefined; ending_before?: string | undefined }): DomainError {
  const field = query.starting_after !== undefined ? 'starting_after' : 'ending_before'
  return invalid('invalid_cursor', `The cursor ${field} does not name an item of this list`, [{ field: `query.${field}`, message: 'not an item of this list' }])
}

export function cursorPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    has_more: z.boolean(),
    page_size: z.number().int(),
    url: z.string().describe('Path of this list'),
    data: z.array(item),
    page_next: z.string().nullable().describe('Path of the next (older) page, or null'),
    page_prev: z.string().nullable().describe('Path of the previous (newer) page, or null'),
  })
}

/**
 * Builds a page from rows fetched with one extra row (page_size + 1) in the cursor's direction.
 * `rows` must be ordered newest first.
 */
export function toCursorPage<Row extends { id: string }, Item>(
  rows: Row[],
  query: CursorQuery,
  path: string,
  toItem: (row: Row) => Item,
) {
  const backwards = query.ending_before !== undefined && query.starting_after === undefined
  const has_more = rows.length > query.page_size
  const page = rows.slice(0, query.page_size)
  const first = page[0]
  const last = page[page.length - 1]
  const link = (param: string, id: string) => `${path}?page_size=${query.page_size}&${param}=${encodeURIComponent(id)}`
  const olderExists = backwards ? true : has_more
  const newerExists = backwards ? has_more : query.starting_after !== undefined
  return {
    has_more,
    page_size: query.page_size,
    url: path,
    data: page.map(toItem),
    page_next: last && olderExists ? link('starting_after', last.id) : null,
    page_prev: first && newerExists ? link('ending_before', first.id) : null,
  }
}
