// Decides whether a delivery may go to an endpoint URL, and to which address. In production only
// https, and every address the name resolves to must be public (one private answer could be the
// one a later connection uses); the connection then goes to the address checked here.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { type EgressEnvironment, isAllowedAddress } from './addressClass.js'

export const EGRESS_LIMITS = { maxResolvedAddresses: 32, lookupTimeoutMs: 15_000 } as const

export type ResolvedAddress = { address: string; family: 4 | 6 }
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export type Target = { url: URL; address: string; family: 4 | 6 }
export type TargetDecision = { ok: true; target: Target } | { ok: false; reason: string }

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

const refuse = (reason: string): TargetDecision => ({ ok: false, reason: `egress refused: ${reason}` })

export async function resolveTarget(rawUrl: string, environment: EgressEnvironment, resolve: Resolver = systemResolver, timeoutMs: number = EGRESS_LIMITS.lookupTimeoutMs): Promise<TargetDecision> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return refuse('not a valid URL')
  }
  if (url.protocol !== 'https:' && !(environment === 'sandbox' && url.protocol === 'http:')) {
    return refuse(`${url.protocol} URLs are not called in ${environment} (https only${environment === 'sandbox' ? ', or http' : ''})`)
  }
  if (url.username || url.password) return refuse('URLs with credentials are not called')
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const literal = isIP(host)
  let addresses: ResolvedAddress[]
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }]
  else {
    // getaddrinfo has no deadline of its own; the attempt's timeout covers the lookup too.
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      addresses = await Promise.race([resolve(host), timedOut])
    } catch (error) {
      return { ok: false, reason: `DNS lookup of ${host} failed: ${error instanceof Error ? error.message : String(error)}` }
    } finally {
      clearTimeout(timer)
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `DNS lookup of ${host} returned no address` }
  for (const { address } of addresses.slice(0, EGRESS_LIMITS.maxResolvedAddresses)) {
    const verdict = isAllowedAddress(address, environment)
    if (!verdict.allowed) return refuse(`${host} resolves to ${address} (${verdict.kind}); ${environment} calls ${environment === 'production' ? 'public addresses only' : 'public or loopback addresses only'}`)
  }
  const first = addresses[0]!
  return { ok: true, target: { url, address: first.address, family: first.family } }
}
