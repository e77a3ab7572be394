// Cross-site request forgery check for requests a session cookie authenticates (SameSite=Strict is
// the first guard; this is the second, for browsers or proxies that do not honour it). A browser
// names where a request comes from in Origin (every non-GET fetch) and Sec-Fetch-Site; either one
// saying another origin is a refusal, and a write by cookie must carry one that says this origin.
import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../http/errorBody.js'

export type OriginVerdict = 'same-origin' | 'cross-origin' | 'unknown'

const originHost = (origin: string): { protocol: string; host: string } | undefined => {
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? { protocol: url.protocol, host: url.host } : undefined
  } catch {
    return undefined
  }
}

/** Host as the Host header names it, with the scheme's default port dropped the way URL.host drops it. */
const normalizedHost = (protocol: string, host: string): string | undefined => {
  try {
    return new URL(`${protocol}//${host}`).host
  } catch {
    return undefined
  }
}

export function originVerdict(request: FastifyRequest): OriginVerdict {
  const { origin, host } = request.headers
  const site = request.headers['sec-fetch-site']
  let same = false
  if (typeof origin === 'string') {
    const from = originHost(origin)
    if (!from || host === undefined || normalizedHost(from.protocol, host) !== from.host) return 'cross-origin'
    same = true
  }
  if (typeof site === 'string') {
    // `none` is a navigation the user made (typed URL, bookmark): no page asked for it, so it proves nothing either way.
    if (site === 'same-origin') same = true
    else if (site !== 'none') return 'cross-origin'
  }
  return same ? 'same-origin' : 'unknown'
}

/** Refuses a write by session cookie that does not show it comes from this origin. */
export function assertSameOrigin(request: FastifyRequest): void {
  const verdict = originVerdict(request)
  if (verdict === 'same-origin') return
  if (verdict === 'cross-origin') {
    throw new ApiError(
      403,
      'Cross-site request refused: a write authenticated by the console session must come from this origin',
      'csrf_origin_mismatch',
    )
  }
  throw new ApiError(
    403,
    'A write authenticated by the console session must send Origin (or Sec-Fetch-Site: same-origin); API clients send an API key instead',
    'csrf_origin_missing',
  )
}

/** Writes need the check; reads change nothing (and SameSite=Strict keeps the cookie off other sites' requests). */
export const isSafeMethod = (method: string): boolean => method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
