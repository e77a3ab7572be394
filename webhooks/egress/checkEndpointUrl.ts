// The egress check at endpoint creation and update: refuses what can be known now (the URL's
// shape, a literal address, a loopback-only or private-use name, a name that resolves to a refused
// address, and in production a name that has no address at all). A lookup that fails otherwise or
// does not answer in time is accepted: DNS changes, and every delivery checks again, which is also
// why an answer may be reused here for a few seconds.
import type { Environment } from '../../domain/shared/environment.js'
import { EGRESS_LIMITS, type ResolvedAddress, type Resolver, answerWithin, isNoSuchName, systemResolver } from './resolveTarget.js'
import { type UrlRefusal, checkUrlShape, refuseAddress } from './urlPolicy.js'

export const CREATION_LOOKUP_CACHE = {
  /** How long one answer (or one failure) serves further creations naming the same host. */
  ttlMs: 10_000,
  maxHosts: 1_000,
} as const

export type EndpointUrlVerdict = { allowed: true } | { allowed: false; refusal: UrlRefusal }

export type EndpointUrlChecker = (rawUrl: string) => Promise<EndpointUrlVerdict>

/** `unknown`: the lookup failed, was too slow, or was not made (too many in flight). */
type Answer = Promise<{ kind: 'addresses'; addresses: ResolvedAddress[] } | { kind: 'no_such_name' } | { kind: 'unknown' }>

export function createEndpointUrlChecker(
  environment: Environment,
  options: { resolver?: Resolver; timeoutMs?: number } = {},
): EndpointUrlChecker {
  const resolve = options.resolver ?? systemResolver
  const timeoutMs = options.timeoutMs ?? EGRESS_LIMITS.creationLookupTimeoutMs
  // Lookups not yet settled, counted until the resolver answers (a timed-out one still holds a thread).
  let inFlight = 0
  const answers = new Map<string, { answer: Answer; expiresAt: number }>()

  function answerFor(host: string): Answer {
    const now = Date.now()
    const cached = answers.get(host)
    if (cached && cached.expiresAt > now) return cached.answer
    answers.delete(host)
    // Past the bound the name goes unchecked here; delivery still checks it.
    if (inFlight >= EGRESS_LIMITS.maxCreationLookupsInFlight) return Promise.resolve({ kind: 'unknown' })
    inFlight++
    const lookup = resolve(host)
    lookup.then(
      () => inFlight--,
      () => inFlight--,
    )
    const answer: Answer = answerWithin(lookup, timeoutMs).then(
      (addresses) => (addresses.length > 0 ? { kind: 'addresses', addresses } : { kind: 'no_such_name' }),
      (error: unknown) => (isNoSuchName(error) ? { kind: 'no_such_name' } : { kind: 'unknown' }),
    )
    if (answers.size >= CREATION_LOOKUP_CACHE.maxHosts) answers.delete(answers.keys().next().value!)
    answers.set(host, { answer, expiresAt: now + CREATION_LOOKUP_CACHE.ttlMs })
    return answer
  }

  return async (rawUrl) => {
    const shape = checkUrlShape(rawUrl, environment)
    if (!shape.ok) return { allowed: false, refusal: shape.refusal }
    if (shape.literal) return { allowed: true }
    const answer = await answerFor(shape.host.toLowerCase())
    // A production endpoint must be reachable now; a sandbox one may name a receiver not started yet.
    if (answer.kind === 'no_such_name' && environment === 'production') {
      return { allowed: false, refusal: { kind: 'unresolvable', detail: `${shape.host} has no address in DNS` } }
    }
    const addresses = answer.kind === 'addresses' ? answer.addresses : []
    for (const { address } of addresses.slice(0, EGRESS_LIMITS.maxResolvedAddresses)) {
      const refusal = refuseAddress(shape.host, address, environment)
      if (refusal) return { allowed: false, refusal }
    }
    return { allowed: true }
  }
}
