// Offset pagination: { data, total, limit, offset }. Deep offsets scan and discard every row before
// them, so the offset is bounded; past it a list pages by cursor.
import { z } from 'zod'
import { PAGE_LIMITS, pageSizeSchema } from './cursorPage.js'

export const MAX_LIST_OFFSET = 100_000

export const offsetQueryShape = {
  limit: pageSizeSchema.optional().describe('Offset mode: items per page, 1-1000, default 50'),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LIST_OFFSET)
    .optional()
    .describe('Offset mode: items to skip, default 0, at most 100000 (use the cursor beyond)'),
}

export type OffsetQuery = { limit?: number | undefined; offset?: number | undefined }

export const pageLimit = (query: OffsetQuery) => query.limit ?? PAGE_LIMITS.default
export const pageOffset = (query: OffsetQuery) => query.offset ?? 0

export function offsetPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
}

export function toOffsetPage<Row, Item>(rows: Row[], total: number, query: OffsetQuery, toItem: (row: Row) => Item) {
  return { data: rows.map(toItem), total, limit: pageLimit(query), offset: pageOffset(query) }
}
