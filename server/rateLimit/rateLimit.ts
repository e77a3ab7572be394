// Request limits: per API key for authenticated requests, per IP address for everything that
// carries no valid key (public routes, a missing key, a failed authentication). Over the limit:
// 429 RateLimitError in the one error body, with Retry-After and the draft RateLimit-* headers.
// Counters live in this process's memory (@fastify/rate-limit's LRU store): each server
// process counts on its own.
import fastifyRateLimit, { type RateLimitOptions, normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError, errorBody } from '../../http/errorBody.js'

export type RateLimitConfig = {
  perKey: { max: number; windowMs: number }
  perIp: { max: number; windowMs: number }
}

export const RATE_LIMIT_LIMITS = {
  /** Keys (or IP addresses) one limiter tracks; past this the least recently seen is forgotten. */
  maxTrackedClients: 10_000,
} as const

/**
 * Routes no limit applies to: an orchestrator's health and readiness probes must never be throttled
 * (a Prometheus scrape of /metrics stays well within the per-IP limit).
 */
const UNLIMITED_ROUTES = new Set(['/health', '/ready'])

type Limit = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>
type CountedLimit = Extract<Limit, { isAllowed: false }>

function setHeaders(reply: FastifyReply, limit: CountedLimit): void {
  reply.header('ratelimit-limit', limit.max)
  reply.header('ratelimit-remaining', limit.remaining)
  reply.header('ratelimit-reset', limit.ttlInSeconds)
  reply.header('ratelimit-policy', `${limit.max};w=${Math.ceil(limit.timeWindow / 1_000)}`)
  if (limit.isExceeded) reply.header('retry-after', Math.max(1, limit.ttlInSeconds))
}

function tooManyRequests(limit: CountedLimit, per: 'API key' | 'IP address'): ApiError {
  const retry = Math.max(1, limit.ttlInSeconds)
  return new ApiError(
    429,
    `Too many requests: at most ${limit.max} per ${limit.timeWindow / 1_000} s for this ${per}; retry in ${retry} s`,
    'rate_limited',
  )
}

export const rateLimits = fp(async (app: FastifyInstance, config: RateLimitConfig) => {
  await app.register(fastifyRateLimit, { global: false })
  const limiter = (max: number, windowMs: number, keyGenerator: (request: FastifyRequest) => string) => {
    const options: RateLimitOptions = { max, timeWindow: windowMs, keyGenerator, cache: RATE_LIMIT_LIMITS.maxTrackedClients }
    return app.createRateLimit(options)
  }
  // Runs after authentication: the key id exists only once the key was checked.
  const perKey = limiter(config.perKey.max, config.perKey.windowMs, (request) => request.principal?.keyId ?? '')
  const perIp = limiter(config.perIp.max, config.perIp.windowMs, (request) => normalizeIP(request.ip))
  const counted = new WeakSet<FastifyRequest>()

  // preValidation: after every onRequest hook (authentication), before the body is validated,
  // so a key sending invalid bodies is counted too.
  app.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.url !== undefined && UNLIMITED_ROUTES.has(request.routeOptions.url)) return
    counted.add(request)
    const limit = await (request.principal ? perKey : perIp)(request)
    if (limit.isAllowed) return
    setHeaders(reply, limit)
    if (limit.isExceeded) throw tooManyRequests(limit, request.principal ? 'API key' : 'IP address')
  })

  // A missing or failed authentication ends before preValidation: it is counted here, on its way
  // out, and once its IP address is over the limit the 401 becomes a 429.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 401 || counted.has(request)) return payload
    counted.add(request)
    const limit = await perIp(request)
    if (limit.isAllowed) return payload
    setHeaders(reply, limit)
    if (!limit.isExceeded) return payload
    reply.code(429)
    return JSON.stringify(errorBody(tooManyRequests(limit, 'IP address'), request.id))
  })
})
