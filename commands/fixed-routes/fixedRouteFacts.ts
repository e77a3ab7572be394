// A fixed route as commands see it: its source account's state (another organization's, a non-route
// account or one outside X-On-Behalf-Of is a 404), and its resource with the sweep target expanded.
import { toAccountResource } from '../../domain/account/resource.js'
import { DomainError, notFound } from '../../domain/errors.js'
import { type FixedRouteAccount, type FixedRouteResource, asFixedRoute, toFixedRouteResource } from '../../domain/fixed-route/resource.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { loadOrgAccount } from '../transfers/transferFacts.js'

/** A 404 as "no such account"; any other failure stays a failure. */
const missingAsUndefined = (error: unknown): undefined => {
  if (error instanceof DomainError && error.kind === 'not_found') return undefined
  throw error
}

export async function loadFixedRoute(
  commands: Commands,
  organizationId: string,
  routeId: string,
  onBehalfOf: string | undefined,
): Promise<FixedRouteAccount> {
  const account = await loadOrgAccount(commands, organizationId, routeId).catch(missingAsUndefined)
  const route = account && asFixedRoute(account)
  if (!route || (onBehalfOf !== undefined && route.account.customerId !== onBehalfOf)) throw notFound('Fixed route', routeId)
  return route
}

/** The route's resource with its target read from the target's own stream. */
export async function fixedRouteAnswer(commands: Commands, route: FixedRouteAccount): Promise<FixedRouteResource> {
  const target = await loadOrgAccount(commands, route.account.organizationId, route.account.details.route.sweepTargetAccountId).catch(
    missingAsUndefined,
  )
  return toFixedRouteResource(route, target && toAccountResource(target))
}
