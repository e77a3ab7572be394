// What the fixed route write routes need from the server (built by its slice's plugin, server/areas/):
// the account routes' deps, and how many routes a customer holds (from the read model, for its limit).
import type { AccountRouteDeps } from '../accounts/deps.js'

export type FixedRouteCounts = { countOf(organizationId: string, customerId: string): Promise<number> }

export type FixedRouteRouteDeps = AccountRouteDeps & { fixedRoutes: FixedRouteCounts }
