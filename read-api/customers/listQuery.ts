// Query of GET /v1/customers: filters and sort, then offset or cursor pagination (http/pagination).
import { z } from 'zod'
import { CUSTOMER_STATUSES, CUSTOMER_TYPES } from '../../domain/customer/enums.js'
import { countryCodeSchema } from '../../domain/shared/country.js'
import { customerResource } from '../../domain/customer/resource.js'
import { offsetOrCursorPageSchema, offsetOrCursorQuery } from '../../http/pagination/offsetOrCursor.js'

export const CUSTOMER_SORTS = ['-createdAt', 'createdAt', 'customerName', '-customerName'] as const
export type CustomerSort = (typeof CUSTOMER_SORTS)[number]

export const customerListQuery = offsetOrCursorQuery({
  status: z.enum(CUSTOMER_STATUSES).optional(),
  type: z.enum(CUSTOMER_TYPES).optional(),
  countryCode: countryCodeSchema.optional(),
  sort: z
    .enum(CUSTOMER_SORTS)
    .default('-createdAt')
    .describe('-createdAt (default, newest first), createdAt, customerName, -customerName; ties broken by id'),
})
export type CustomerListQuery = z.infer<typeof customerListQuery>

export const customerListResponse = offsetOrCursorPageSchema(customerResource)

/** The filters and sort a page link keeps, in the order the links have always named them. */
export function listFilters(q: CustomerListQuery): URLSearchParams {
  const params = new URLSearchParams()
  if (q.status) params.set('status', q.status)
  if (q.type) params.set('type', q.type)
  if (q.countryCode) params.set('countryCode', q.countryCode)
  params.set('sort', q.sort)
  return params
}
