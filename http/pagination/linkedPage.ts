// A list that pages by offset (limit, offset) or by cursor (page_size, starting_after,
// ending_before), one mode per request (offsetOrCursor.ts's query), and answers the spec's cursor
// list shape in both modes: { has_more, page_size, url, data, page_next, page_prev } (the transfer
// list). `url` is the request as made (path and query); page_next and page_prev link the
// neighbouring pages in the request's own mode, with its filters: offset ± the page size, or the
// last item as starting_after and the first as ending_before. An offset page whose next offset
// would pass the offset bound links its next page by cursor instead (starting_after its last item).
import { z } from 'zod'
import { cursorPageSchema, toCursorPage } from './cursorPage.js'
import { type OffsetOrCursorQuery, cursorOf, isOffsetMode } from './offsetOrCursor.js'
import { MAX_LIST_OFFSET, pageLimit, pageOffset } from './offsetPage.js'

export function linkedPageSchema<T extends z.ZodType>(item: T) {
  return cursorPageSchema(item).extend({
    has_more: z.boolean().describe('True when items follow this page (older ones; newer ones when paging back with ending_before)'),
    page_size: z.number().int().describe('The page size asked for (limit in offset mode, page_size in cursor mode)'),
    url: z.string().describe('This request: path and query'),
    page_next: z.string().nullable().describe('The next (older) page in the same paging mode and filters, or null on the last page'),
    page_prev: z
      .string()
      .nullable()
      .describe(
        'The previous (newer) page in the same paging mode and filters (offset mode: offset - limit; cursor mode: ending_before ' +
          'the first item), or null on the first page',
      ),
  })
}

/** The request a page answers: as made (url), and its path and filters for the links. */
export type PageRequest = { url: string; path: string; filters: URLSearchParams }

/**
 * A page from rows fetched with one extra row (the has_more probe) in list order (cursorPage.ts's
 * inListOrder for ending_before), in the query's mode.
 */
export function toLinkedPage<Row extends { id: string }>(rows: Row[], query: OffsetOrCursorQuery, request: PageRequest) {
  if (!isOffsetMode(query)) {
    const page = toCursorPage(rows, cursorOf(query), { path: request.path, filters: request.filters }, (row) => row)
    return { ...page, url: request.url }
  }
  const size = pageLimit(query)
  const offset = pageOffset(query)
  const has_more = rows.length > size
  const data = rows.slice(0, size)
  const link = (params: Record<string, string>) => {
    const search = new URLSearchParams(request.filters)
    for (const [name, value] of Object.entries(params)) search.set(name, value)
    return `${request.path}?${search.toString()}`
  }
  const last = data[data.length - 1]
  const next = offset + size
  let page_next: string | null = null
  if (has_more && last)
    page_next =
      next <= MAX_LIST_OFFSET ? link({ limit: `${size}`, offset: `${next}` }) : link({ page_size: `${size}`, starting_after: last.id })
  return {
    has_more,
    page_size: size,
    url: request.url,
    data,
    page_next,
    page_prev: offset > 0 ? link({ limit: `${size}`, offset: `${Math.max(0, offset - size)}` }) : null,
  }
}
