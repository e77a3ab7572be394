// Query of GET /v1/customers: filters, sort, and either offset (limit, offset) or cursor
// (page_size, starting_after, ending_before) pagination; one mode per request.
import { z } from 'zod'
import { CUSTOMER_STATUSES, CUSTOMER_TYPES } from '../../domain/customer/enums.js'
import { countryCodeSchema } from '../../domain/shared/country.js'
import { customerResource } from '../../domain/customer/resource.js'
import { PAGE_LIMITS, cursorPageSchema } from '../pagination/cursorPage.js'

export const CUSTOMER_SORTS = ['-createdAt', 'createdAt', 'customerName', '-customerName'] as const
export type CustomerSort = (typeof CUSTOMER_SORTS)[number]

const pageSize = z.coerce.number().int().min(PAGE_LIMITS.min).max(PAGE_LIMITS.max)
/** Deep offsets scan and discard every row before them: past this, use the cursor. */
export const MAX_LIST_OFFSET = 100_000

export const customerListQuery = z.object({
  status: z.enum(CUSTOMER_STATUSES).optional(),
  type: z.enum(CUSTOMER_TYPES).optional(),
  countryCode: countryCodeSchema.optional(),
  sort: z.enum(CUSTOMER_SORTS).default('-createdAt').describe('-createdAt (default, newest first), createdAt, customerName, -customerName; ties broken by id'),
  limit: pageSize.optional().describe('Offset mode: items per page, 1-1000, default 50'),
  offset: z.coerce.number().int().min(0).max(MAX_LIST_OFFSET).optional().describe('Offset mode: items to skip, default 0, at most 100000 (use the cursor beyond)'),
  page_size: pageSize.optional().describe('Cursor mode (the default): items per page, 1-1000, default 50'),
  starting_after: z.string().max(64).optional().describe('Cursor: id of the last item of the previous page'),
  ending_before: z.string().max(64).optional().describe('Cursor: id of the first item of the next page'),
}).refine(
  (q) => !((q.limit !== undefined || q.offset !== undefined) && (q.page_size !== undefined || q.starting_after !== undefined || q.ending_before !== undefined)),
  'use either limit/offset or page_size/starting_after/ending_before, not both',
).refine((q) => !(q.starting_after !== undefined && q.ending_before !== undefined), 'use starting_after or ending_before, not both')
export type CustomerListQuery = z.infer<typeof customerListQuery>

export const offsetPageSchema = z.object({
  data: z.array(customerResource),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
})

export const customerListResponse = z.union([cursorPageSchema(customerResource), offsetPageSchema])
  .describe('Offset mode (limit or offset given): data, total, limit, offset. Otherwise cursor mode: has_more, page_size, url, data, page_next, page_prev.')

export const isOffsetMode = (q: CustomerListQuery) => q.limit !== undefined || q.offset !== undefined
