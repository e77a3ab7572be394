// Cursor pagination in the spec's list shape: { has_more, page_size, url, data, page_next,
// page_prev }. Every list's ids sort by creation, so an item's id is the cursor. Each list runs its
// own keyset query: it fetches one row past the page (the has_more probe) in the cursor's
// direction; this module builds the page and its links from those rows.
import { z } from 'zod'
import { type DomainError, invalid } from '../../domain/errors.js'

export const PAGE_LIMITS = { min: 1, max: 1_000, default: 50 } as const
/** Longer than any id the service issues. */
const CURSOR_MAX_LENGTH = 64

export const pageSizeSchema = z.coerce.number().int().min(PAGE_LIMITS.min).max(PAGE_LIMITS.max)
export const cursorIdSchema = z.string().max(CURSOR_MAX_LENGTH)

/** The cursor query of a list that pages only by cursor; add its filters with `.extend`. */
export const cursorQuery = z.object({
  page_size: pageSizeSchema.default(PAGE_LIMITS.default).describe('Items per page, 1-1000, default 50'),
  starting_after: cursorIdSchema.optional().describe('Cursor: id of the last item of the previous page (older items follow)'),
  ending_before: cursorIdSchema.optional().describe('Cursor: id of the first item of the next page (newer items precede)'),
})

export type CursorQuery = { page_size: number; starting_after?: string | undefined; ending_before?: string | undefined }

/** A page links to its neighbours with the list's path and filters (in this order), then page_size and the cursor. */
export type PageLinks = { path: string; filters?: URLSearchParams }

/**
 * The one answer of every cursor list to a cursor that names no item of it (another
 * organization's id, a made-up one): 422 invalid_cursor, never an empty 200 page that reads like
 * the end of the list.
 */
export function unknownCursor(query: { starting_after?: string | undefined; ending_before?: string | undefined }): DomainError {
  const field = query.starting_after !== undefined ? 'starting_after' : 'ending_before'
  return invalid('invalid_cursor', `The cursor ${field} does not name an item of this list`, [
    { field: `query.${field}`, message: 'not an item of this list' },
  ])
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

const isBackwards = (query: CursorQuery) => query.ending_before !== undefined && query.starting_after === undefined

/**
 * Rows a keyset query fetched walking backwards (ending_before: the nearest newer rows first),
 * put back in the list's order with the has_more probe, if any, last: the shape toCursorPage takes.
 */
export function inListOrder<Row>(rows: Row[], query: CursorQuery): Row[] {
  if (!isBackwards(query)) return rows
  const page = rows.slice(0, query.page_size).reverse()
  return rows.length > query.page_size ? [...page, rows[query.page_size]!] : page
}

/**
 * Builds a page from rows fetched with one extra row (page_size + 1) in the cursor's direction,
 * in the list's order (see inListOrder).
 */
export function toCursorPage<Row extends { id: string }, Item>(
  rows: Row[],
  query: CursorQuery,
  links: PageLinks,
  toItem: (row: Row) => Item,
) {
  const backwards = isBackwards(query)
  const has_more = rows.length > query.page_size
  const page = rows.slice(0, query.page_size)
  const first = page[0]
  const last = page[page.length - 1]
  const link = (param: string, id: string) => {
    const params = new URLSearchParams(links.filters)
    params.set('page_size', String(query.page_size))
    params.set(param, id)
    return `${links.path}?${params.toString()}`
  }
  const olderExists = backwards ? true : has_more
  const newerExists = backwards ? has_more : query.starting_after !== undefined
  return {
    has_more,
    page_size: query.page_size,
    url: links.path,
    data: page.map(toItem),
    page_next: last && olderExists ? link('starting_after', last.id) : null,
    page_prev: first && newerExists ? link('ending_before', first.id) : null,
  }
}
