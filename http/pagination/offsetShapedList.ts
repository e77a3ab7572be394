// The spec's account-list paging: offset (limit, offset) or cursor (page_size, starting_after),
// one mode per request, 1 to 1000 items (default 500), and in both modes the answer
// { data, total, limit, offset }: in cursor mode `limit` is the page size and `offset` the number of
// items before the page, so a client can mix the two. Used by the lists the spec shapes that way
// (counterparties here; accounts follow the same contract).
import { z } from 'zod'
import { cursorIdSchema, pageSizeSchema } from './cursorPage.js'
import { MAX_LIST_OFFSET, offsetPageSchema } from './offsetPage.js'

export const OFFSET_SHAPED_LIST_LIMITS = { defaultSize: 500 } as const

const given = (value: unknown) => value !== undefined
type ModeParams = { [K in keyof OffsetShapedListQuery]?: unknown }
const oneMode = (q: ModeParams) => !((given(q.limit) || given(q.offset)) && (given(q.page_size) || given(q.starting_after)))

/** The list's filters, then both modes' parameters. */
export function offsetShapedListQuery<Filters extends z.ZodRawShape>(filters: Filters) {
  const d = OFFSET_SHAPED_LIST_LIMITS.defaultSize
  return z
    .object({
      ...filters,
      limit: pageSizeSchema.optional().describe(`Offset mode: items per page, 1-1000, default ${d}`),
      offset: z.coerce
        .number()
        .int()
        .min(0)
        .max(MAX_LIST_OFFSET)
        .optional()
        .describe(`Offset mode: items to skip, default 0, at most ${MAX_LIST_OFFSET} (use the cursor beyond)`),
      page_size: pageSizeSchema.optional().describe(`Cursor mode: items per page, 1-1000, default ${d}`),
      starting_after: cursorIdSchema.optional().describe('Cursor mode: id of the last item of the previous page (older items follow)'),
    })
    .refine(oneMode, 'use either limit/offset or page_size/starting_after, not both')
}

export type OffsetShapedListQuery = {
  limit?: number | undefined
  offset?: number | undefined
  page_size?: number | undefined
  starting_after?: string | undefined
}

/** The page a query asks for: its size, and either an offset or the cursor to start after. */
export type ListWindow = { size: number } & ({ offset: number; startingAfter?: undefined } | { offset?: undefined; startingAfter: string })

export function listWindowOf(query: OffsetShapedListQuery): ListWindow {
  const size = query.limit ?? query.page_size ?? OFFSET_SHAPED_LIST_LIMITS.defaultSize
  return query.starting_after !== undefined ? { size, startingAfter: query.starting_after } : { size, offset: query.offset ?? 0 }
}

export function offsetShapedListSchema<T extends z.ZodType>(item: T) {
  return offsetPageSchema(item).describe(
    'data: the page; total: items matching the filters; limit: the page size asked for; offset: items before this page',
  )
}
