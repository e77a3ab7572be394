// Walking a list page by page, whatever its paging: the cursor lists' page_next link (page_prev when the
// walk started with ending_before), including the balance history's limit/cursor pages, and the offset
// lists' { data, total, limit, offset } (by offset, then by starting_after past the service's offset bound,
// or by starting_after from the start when the walk began by cursor). Pure: the page fetch is passed in.
import { PaymentsPaginationError } from './errors.js'

export type PageQuery = Record<string, unknown>

export const PAGINATION_LIMITS = {
  /** Pages one walk reads unless told otherwise (50 000 items at the default page size). */
  defaultMaxPages: 1_000,
  maxMaxPages: 100_000,
  /** The service's largest offset (http/pagination/offsetPage.ts); beyond it, lists page by cursor. */
  serviceMaxOffset: 100_000,
} as const

/** The query parameters that say which page: replaced by the next page's, never carried over. */
const PAGING_PARAMS = ['limit', 'offset', 'page_size', 'starting_after', 'ending_before', 'cursor'] as const

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function withoutPaging(query: PageQuery): PageQuery {
  const rest: PageQuery = { ...query }
  for (const name of PAGING_PARAMS) delete rest[name]
  return rest
}

/** A link's query as parameters (a repeated name becomes a list, as the query serializer sends lists). */
function linkQuery(link: string): PageQuery {
  const params = new URL(link, 'http://link.invalid').searchParams
  const query: PageQuery = {}
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name)
    query[name] = values.length === 1 ? values[0] : values
  }
  return query
}

const idOf = (item: unknown): string | undefined => (isRecord(item) && typeof item.id === 'string' ? item.id : undefined)

/** The query of the page after `page` (read with `query`), or undefined when `page` is the last. */
export function nextPageQuery(page: unknown, query: PageQuery): PageQuery | undefined {
  if (!isRecord(page) || !Array.isArray(page.data)) throw new PaymentsPaginationError('not_a_page', 'the answer is not a list page')
  const backwards = query.ending_before !== undefined && query.starting_after === undefined
  const link = backwards ? page.page_prev : page.page_next
  if (typeof link === 'string') return { ...withoutPaging(query), ...linkQuery(link) }
  if (link === null || page.has_more === false) return undefined
  if (typeof page.total !== 'number' || typeof page.offset !== 'number') {
    throw new PaymentsPaginationError('not_a_page', 'the page has neither a next-page link nor an offset and total')
  }
  const next = page.offset + page.data.length
  if (page.data.length === 0 || next >= page.total) return undefined
  const lastId = idOf(page.data[page.data.length - 1])
  const size = typeof page.limit === 'number' ? page.limit : undefined
  if (query.starting_after !== undefined || next > PAGINATION_LIMITS.serviceMaxOffset) {
    if (lastId === undefined) throw new PaymentsPaginationError('not_a_page', 'past the offset bound, and the items have no id to page by')
    return { ...withoutPaging(query), ...(size === undefined ? {} : { page_size: size }), starting_after: lastId }
  }
  return { ...withoutPaging(query), ...(size === undefined ? {} : { limit: size }), offset: next }
}

export type PaginateOptions = {
  /** Pages read at most; one more is a PaymentsPaginationError, never a silently shortened list. */
  maxPages?: number
}

/** Every item of every page, in the list's order, fetching each page when the previous one is used up. */
export function paginateItems<Item>(
  fetchPage: (query: PageQuery) => Promise<{ data: readonly Item[] }>,
  query: PageQuery,
  options: PaginateOptions = {},
): AsyncGenerator<Item, void, undefined> {
  // Checked here, at the call, not at the first page: a generator body runs only when iterated.
  const maxPages = options.maxPages ?? PAGINATION_LIMITS.defaultMaxPages
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > PAGINATION_LIMITS.maxMaxPages) {
    throw new RangeError(`maxPages must be an integer from 1 to ${PAGINATION_LIMITS.maxMaxPages}`)
  }
  return walk(fetchPage, query, maxPages)
}

async function* walk<Item>(
  fetchPage: (query: PageQuery) => Promise<{ data: readonly Item[] }>,
  query: PageQuery,
  maxPages: number,
): AsyncGenerator<Item, void, undefined> {
  const seen = new Set<string>()
  let current: PageQuery | undefined = query
  for (let pages = 0; current !== undefined; pages++) {
    if (pages === maxPages) throw new PaymentsPaginationError('max_pages_reached', `the list has more than ${maxPages} pages`)
    const key = JSON.stringify(current)
    if (seen.has(key)) throw new PaymentsPaginationError('page_loop', 'a page links back to a page already read')
    seen.add(key)
    const page = await fetchPage(current)
    current = nextPageQuery(page, current)
    yield* page.data
  }
}
