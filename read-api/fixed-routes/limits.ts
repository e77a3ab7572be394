// The named limits of the fixed route read API (the offset bound is the shared offset paging's:
// http/pagination/offsetPage.ts).

export const FIXED_ROUTE_LIST_LIMITS = {
  /** Routes per page: the spec's default 50; at most 100 (all a customer may hold: domain/fixed-route/limits.ts). */
  minLimit: 1,
  maxLimit: 100,
  defaultLimit: 50,
} as const
