// The sweep target of each route, expanded (masked, as every account read shows it) from the
// accounts read model: one query for a whole page. The target is looked up in the organization,
// not narrowed to X-On-Behalf-Of: a route may sweep to the organization's treasury wallet, and the
// route (which the caller may read) names it.
import type { Kysely } from 'kysely'
import { type FixedRouteResource, expandedTarget } from '../../domain/fixed-route/resource.js'
import type { StoredFixedRoute } from '../../projections/fixedRouteSchema.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { accountsByIds } from '../accounts/queries.js'

/** Looks up the targets of `routes` (one query) and gives what puts them into a route. */
export async function sweepTargetsOf(
  db: Kysely<ReadDatabase>,
  organizationId: string,
  routes: readonly StoredFixedRoute[],
): Promise<(route: StoredFixedRoute) => FixedRouteResource> {
  const ids = [...new Set(routes.map((route) => route.sweepTargetAccountId))]
  const targets = await accountsByIds(db, { organizationId, customerId: undefined }, ids)
  return (route) => ({ ...route, sweepTargetAccount: expandedTarget(targets.get(route.sweepTargetAccountId)) })
}
