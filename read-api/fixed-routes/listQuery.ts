// The query of a customer's fixed route list: offset paging (spec: limit default 50, offset default 0).
import { z } from 'zod'
import { MAX_LIST_OFFSET } from '../../http/pagination/offsetPage.js'
import { FIXED_ROUTE_LIST_LIMITS as L } from './limits.js'

export const fixedRouteListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(L.minLimit)
    .max(L.maxLimit)
    .default(L.defaultLimit)
    .describe(`Routes per page, ${L.minLimit}-${L.maxLimit}, default ${L.defaultLimit}`),
  offset: z.coerce.number().int().min(0).max(MAX_LIST_OFFSET).default(0).describe(`Routes to skip, default 0, at most ${MAX_LIST_OFFSET}`),
})
export type FixedRouteListQuery = z.infer<typeof fixedRouteListQuery>
