// Cursor pagination with an opaque cursor (spec: the balance history's `limit` and `cursor`): the
// page is { has_more, limit, url, data, next_cursor, page_next }, the same has_more/url/data/
// page_next as the project's other cursor lists, with the spec's names for the size and the cursor.
// The cursor is base64url JSON naming the list it belongs to (say, one account's history) and a
// position in it; one from another list, or altered into nonsense, is the shared 422 invalid_cursor.
// It is not signed: it only ever reaches rows the caller may read anyway. A list merged from several
// sequences (a resource's event streams) names a position in each: a vector, keyed by sequence.
import { z } from 'zod'
import { type DomainError, invalid } from '../../domain/errors.js'

export const LIMIT_CURSOR_LIMITS = { maxCursorLength: 512, maxVectorEntries: 32 } as const

/** Which way a list runs: newest first (histories as a person reads them), or oldest first (a log replayed). */
export type ListOrder = 'newest first' | 'oldest first'
const FOLLOWING: Record<ListOrder, { items: string; first: string }> = {
  'newest first': { items: 'older', first: 'newest' },
  'oldest first': { items: 'newer', first: 'oldest' },
}

/** The query of such a list: `limit` within the list's bounds, then `cursor`; add filters with `.extend`. */
export function limitCursorQuery(bounds: { min: number; max: number; default: number }, order: ListOrder = 'newest first') {
  return z.object({
    limit: z.coerce
      .number()
      .int()
      .min(bounds.min)
      .max(bounds.max)
      .default(bounds.default)
      .describe(`Items per page, ${bounds.min}-${bounds.max}, default ${bounds.default}`),
    cursor: z
      .string()
      .min(1)
      .max(LIMIT_CURSOR_LIMITS.maxCursorLength)
      .optional()
      .describe(`The next_cursor of the previous page (opaque); omit for the first (${FOLLOWING[order].first}) page`),
  })
}

export type LimitCursorQuery = { limit: number; cursor?: string | undefined }

/** The shared answer to a cursor that names no position of this list. */
export function invalidCursor(): DomainError {
  return invalid('invalid_cursor', 'The cursor does not name a position of this list', [
    { field: 'query.cursor', message: 'not a cursor of this list' },
  ])
}

/** A position in each sequence of a merged list, by the sequence's key. */
export type CursorVector = Readonly<Record<string, bigint>>

const position = z.string().regex(/^\d{1,20}$/)
const cursorBody = z.union([
  z.object({ l: z.string(), p: position }),
  z.object({ l: z.string(), v: z.record(z.string().regex(/^[a-z_]{1,64}$/), position) }),
])

/** The opaque cursor of `at` in list `list`: a position (a non-negative integer), or a vector of them. */
export function encodeCursor(list: string, at: bigint | CursorVector): string {
  const body =
    typeof at === 'bigint'
      ? { l: list, p: at.toString() }
      : { l: list, v: Object.fromEntries(Object.entries(at).map(([key, value]) => [key, value.toString()])) }
  return Buffer.from(JSON.stringify(body)).toString('base64url')
}

function decodedBody(list: string, cursor: string): z.infer<typeof cursorBody> {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalidCursor()
  }
  const body = cursorBody.safeParse(parsed)
  if (!body.success || body.data.l !== list) throw invalidCursor()
  return body.data
}

/** The position a cursor names in `list`; invalid_cursor when it is not one of this list's cursors. */
export function decodeCursor(list: string, cursor: string): bigint {
  const body = decodedBody(list, cursor)
  if (!('p' in body)) throw invalidCursor()
  return BigInt(body.p)
}

/** The vector a cursor names in the merged list `list`; invalid_cursor when it is not one of this list's cursors. */
export function decodeCursorVector(list: string, cursor: string): CursorVector {
  const body = decodedBody(list, cursor)
  if (!('v' in body) || Object.keys(body.v).length > LIMIT_CURSOR_LIMITS.maxVectorEntries) throw invalidCursor()
  return Object.fromEntries(Object.entries(body.v).map(([key, value]) => [key, BigInt(value)]))
}

export function limitCursorPageSchema<T extends z.ZodType>(item: T, order: ListOrder = 'newest first') {
  const following = FOLLOWING[order].items
  return z.object({
    has_more: z.boolean().describe(`True when ${following} items follow this page`),
    limit: z.number().int().describe('The page size asked for'),
    url: z.string().describe('Path of this list'),
    data: z.array(item),
    next_cursor: z.string().nullable().describe(`Pass as \`cursor\` for the next (${following}) page; null on the last page`),
    page_next: z.string().nullable().describe('Path of the next page (this list with limit and cursor), or null'),
  })
}

/**
 * A page from rows fetched with at least one extra row (limit + 1), in the list's order; `positionOf`
 * gives the position the next page starts after (the last row's).
 */
export function toLimitCursorPage<Row, Item>(
  rows: Row[],
  query: LimitCursorQuery,
  list: { id: string; path: string },
  positionOf: (row: Row) => bigint | CursorVector,
  toItem: (row: Row) => Item,
) {
  const has_more = rows.length > query.limit
  const page = rows.slice(0, query.limit)
  const last = page[page.length - 1]
  const next_cursor = has_more && last !== undefined ? encodeCursor(list.id, positionOf(last)) : null
  const params = new URLSearchParams({ limit: String(query.limit), ...(next_cursor ? { cursor: next_cursor } : {}) })
  return {
    has_more,
    limit: query.limit,
    url: list.path,
    data: page.map(toItem),
    next_cursor,
    page_next: next_cursor ? `${list.path}?${params.toString()}` : null,
  }
}
