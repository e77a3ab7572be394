// Decides whether a delivery may go to an endpoint URL, and to which address. In production only
// https, and every address the name resolves to must be public (one private answer could be the
// one a later connection uses); the connection then goes to the address checked here. A refusal
// stores a fixed text on the attempt; what the name resolved to is only in `detail`, for the log.
import { lookup } from 'node:dns/promises'
import type { Environment } from '../../domain/shared/environment.js'
import { type UrlRefusalKind, checkUrlShape, refuseAddress } from './urlPolicy.js'

export const EGRESS_LIMITS = {
  maxResolvedAddresses: 32,
  lookupTimeoutMs: 15_000,
  /** At endpoint creation or update: a slow name is accepted and checked again at each delivery. */
  creationLookupTimeoutMs: 2_000,
  /** Creation lookups in flight in one process (getaddrinfo holds a libuv thread even after our timeout). */
  maxCreationLookupsInFlight: 16,
} as const

export type ResolvedAddress = { address: string; family: 4 | 6 }
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export type Target = { url: URL; address: string; family: 4 | 6 }
export type TargetDecision =
  | { ok: true; target: Target }
  /** `reason` is stored on the attempt; `detail`, when there is one, goes to the server log only. */
  | { ok: false; reason: string; detail?: string }

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** getaddrinfo's answers that the name has no address (EAI_NONAME, EAI_NODATA), as opposed to a lookup that failed or timed out. */
const NO_SUCH_NAME_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'ENODATA'])

export function isNoSuchName(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  return typeof code === 'string' && NO_SUCH_NAME_CODES.has(code)
}

/** What an attempt stores: the same words whatever the URL or DNS said. */
export const EGRESS_REFUSAL_TEXT: Record<UrlRefusalKind, string> = {
  invalid: 'egress refused: not a valid URL',
  scheme: 'egress refused: scheme not allowed in this environment',
  credentials: 'egress refused: URLs with credentials are not called',
  address: 'egress refused: destination not allowed',
  unresolvable: 'egress refused: the host name does not resolve',
}

/** The lookup's answer within `timeoutMs`; getaddrinfo has no deadline of its own. */
export async function answerWithin(lookup: Promise<ResolvedAddress[]>, timeoutMs: number): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([lookup, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

export async function resolveTarget(
  rawUrl: string,
  environment: Environment,
  resolve: Resolver = systemResolver,
  timeoutMs: number = EGRESS_LIMITS.lookupTimeoutMs,
): Promise<TargetDecision> {
  const shape = checkUrlShape(rawUrl, environment)
  if (!shape.ok) return { ok: false, reason: EGRESS_REFUSAL_TEXT[shape.refusal.kind], detail: shape.refusal.detail }
  const { url, host } = shape
  let addresses: ResolvedAddress[]
  if (shape.literal) addresses = [shape.literal]
  else {
    try {
      addresses = await answerWithin(resolve(host), timeoutMs)
    } catch (error) {
      return { ok: false, reason: `DNS lookup of ${host} failed: ${error instanceof Error ? error.message : String(error)}` }
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `DNS lookup of ${host} returned no address` }
  for (const { address } of addresses.slice(0, EGRESS_LIMITS.maxResolvedAddresses)) {
    const refusal = refuseAddress(host, address, environment)
    if (refusal) return { ok: false, reason: EGRESS_REFUSAL_TEXT[refusal.kind], detail: refusal.detail }
  }
  const first = addresses[0]!
  return { ok: true, target: { url, address: first.address, family: first.family } }
}
