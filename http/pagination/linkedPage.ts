// A list that pages by offset (limit, offset) or by cursor (page_size, starting_after,
// ending_before), one mode per request (offsetOrCursor.ts's query), and answers the spec's cursor
// list shape in both modes: { has_more, page_size, url, data, page_next, page_prev } (the transfer
// list). `url` is the list's path, as in the project's other cursor lists (and Stripe's): not the
// query, which would echo whatever ids the caller put in its filters. page_next and page_prev link
// the neighbouring pages in the request's own mode, with its filters: offset ± the page size, or
// the last item as starting_after and the first as ending_before. An offset page whose next offset
// would pass the offset bound links its next page by cursor instead (starting_after its last item).
import { z } from 'zod'
import { type PageLinks, cursorPageSchema, toCursorPage } from './cursorPage.js'
import { type OffsetOrCursorQuery, cursorOf, isOffsetMode } from './offsetOrCursor.js'
import { MAX_LIST_OFFSET, pageLimit, pageOffset } from './offsetPage.js'

export function linkedPageSchema<T extends z.ZodType>(item: T) {
  return cursorPageSchema(item).extend({
    has_more: z.boolean().describe('True when items follow this page (older ones; newer ones when paging back with ending_before)'),
    page_size: z.number().int().describe('The page size asked for (limit in offset mode, page_size in cursor mode)'),
    url: z.string().describe('Path of this list'),
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

/**
 * A page from rows fetched with one extra row (the has_more probe) in list order (cursorPage.ts's
 * inListOrder for ending_before), in the query's mode.
 */
export function toLinkedPage<Row extends { id: string }>(rows: Row[], query: OffsetOrCursorQuery, links: PageLinks) {
  if (!isOffsetMode(query)) return toCursorPage(rows, cursorOf(query), links, (row) => row)
  const size = pageLimit(query)
  const offset = pageOffset(query)
  const has_more = rows.length > size
  const data = rows.slice(0, size)
  const link = (params: Record<string, string>) => {
    const search = new URLSearchParams(links.filters)
    for (const [name, value] of Object.entries(params)) search.set(name, value)
    return `${links.path}?${search.toString()}`
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
    url: links.path,
    data,
    page_next,
    page_prev: offset > 0 ? link({ limit: `${size}`, offset: `${Math.max(0, offset - size)}` }) : null,
  }
}
