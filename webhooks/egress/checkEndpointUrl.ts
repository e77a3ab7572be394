// The egress check at endpoint creation and update: refuses what can be known now (the URL's
// shape, a literal address, a loopback-only name, a name that resolves to a refused address).
// A name that does not resolve in time is accepted: DNS changes, and every delivery checks again.
import type { EgressEnvironment } from './addressClass.js'
import { EGRESS_LIMITS, type ResolvedAddress, type Resolver, answerWithin, systemResolver } from './resolveTarget.js'
import { type UrlRefusal, checkUrlShape, refuseAddress } from './urlPolicy.js'

export type EndpointUrlVerdict = { allowed: true } | { allowed: false; refusal: UrlRefusal }

export type EndpointUrlChecker = (rawUrl: string) => Promise<EndpointUrlVerdict>

export function createEndpointUrlChecker(environment: EgressEnvironment, options: { resolver?: Resolver; timeoutMs?: number } = {}): EndpointUrlChecker {
  const resolve = options.resolver ?? systemResolver
  const timeoutMs = options.timeoutMs ?? EGRESS_LIMITS.creationLookupTimeoutMs
  // Lookups not yet settled, counted until the resolver answers (a timed-out one still holds a thread).
  let inFlight = 0

  return async (rawUrl) => {
    const shape = checkUrlShape(rawUrl, environment)
    if (!shape.ok) return { allowed: false, refusal: shape.refusal }
    // Past the bound the name goes unchecked here; delivery still checks it.
    if (shape.literal || inFlight >= EGRESS_LIMITS.maxCreationLookupsInFlight) return { allowed: true }
    inFlight++
    const lookup = resolve(shape.host)
    lookup.then(() => inFlight--, () => inFlight--)
    let addresses: ResolvedAddress[]
    try {
      addresses = await answerWithin(lookup, timeoutMs)
    } catch {
      return { allowed: true }
    }
    for (const { address } of addresses.slice(0, EGRESS_LIMITS.maxResolvedAddresses)) {
      const refusal = refuseAddress(shape.host, address, environment)
      if (refusal) return { allowed: false, refusal }
    }
    return { allowed: true }
  }
}
