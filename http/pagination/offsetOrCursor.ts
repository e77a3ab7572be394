// A list that pages either by offset (limit, offset) or by cursor (page_size, starting_after,
// ending_before), one mode per request; cursor mode is the default.
import { z } from 'zod'
import { type CursorQuery, PAGE_LIMITS, cursorIdSchema, cursorPageSchema, pageSizeSchema } from './cursorPage.js'
import { type OffsetQuery, offsetPageSchema, offsetQueryShape } from './offsetPage.js'

type ModeParams = { [K in keyof OffsetOrCursorQuery]?: unknown }
const given = (value: unknown) => value !== undefined
const oneMode = (q: ModeParams) =>
  !((given(q.limit) || given(q.offset)) && (given(q.page_size) || given(q.starting_after) || given(q.ending_before)))
const oneCursor = (q: ModeParams) => !(given(q.starting_after) && given(q.ending_before))

/** The list's filters first, then both modes' parameters. */
export function offsetOrCursorQuery<Filters extends z.ZodRawShape>(filters: Filters) {
  return z
    .object({
      ...filters,
      ...offsetQueryShape,
      page_size: pageSizeSchema.optional().describe('Cursor mode (the default): items per page, 1-1000, default 50'),
      starting_after: cursorIdSchema.optional().describe('Cursor: id of the last item of the previous page'),
      ending_before: cursorIdSchema.optional().describe('Cursor: id of the first item of the next page'),
    })
    .refine(oneMode, 'use either limit/offset or page_size/starting_after/ending_before, not both')
    .refine(oneCursor, 'use starting_after or ending_before, not both')
}

export type OffsetOrCursorQuery = OffsetQuery & {
  page_size?: number | undefined
  starting_after?: string | undefined
  ending_before?: string | undefined
}

export const isOffsetMode = (query: OffsetQuery) => query.limit !== undefined || query.offset !== undefined

/** The cursor-mode view of the query, page_size defaulted. */
export function cursorOf(query: OffsetOrCursorQuery): CursorQuery {
  return { page_size: query.page_size ?? PAGE_LIMITS.default, starting_after: query.starting_after, ending_before: query.ending_before }
}

export function offsetOrCursorPageSchema<T extends z.ZodType>(item: T) {
  return z
    .union([cursorPageSchema(item), offsetPageSchema(item)])
    .describe(
      'Offset mode (limit or offset given): data, total, limit, offset. Otherwise cursor mode: has_more, page_size, url, data, ' +
        'page_next, page_prev.',
    )
}
