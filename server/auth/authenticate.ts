// Authenticates every /v1 route: `Authorization: Bearer <key>` or `X-API-Key: <key>`, for the
// deployment's environment only. Lookups are cached briefly; a revoked key stops working within
// the cache's TTL.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Environment } from '../../domain/shared/environment.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { ApiError } from '../../http/errorBody.js'
import { MAX_KEY_LENGTH, hashApiKey, keyKind } from '../../domain/organization/apiKeys.js'
import type { Principal } from '../../http/principal.js'

export const AUTH_CACHE = { ttlMs: 5_000, maxEntries: 10_000 } as const

function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization
  if (typeof authorization === 'string' && authorization.length > 0) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization)
    if (!match) throw new ApiError(401, 'Authorization header must use the Bearer scheme')
    return match[1]
  }
  const header = request.headers['x-api-key']
  return typeof header === 'string' && header.length > 0 ? header : undefined
}

export const authenticate = fp(async (app: FastifyInstance, options: { db: Kysely<ReadDatabase>; environment: Environment }) => {
  const cache = new Map<string, { principal: Principal | null; expiresAt: number }>()

  async function lookup(hash: string): Promise<Principal | null> {
    const hit = cache.get(hash)
    if (hit && hit.expiresAt > Date.now()) return hit.principal
    const row = await options.db
      .selectFrom('api_keys')
      .select(['id', 'organization_id', 'environment'])
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    const principal = row ? { organizationId: row.organization_id, keyId: row.id, environment: row.environment } : null
    if (cache.size >= AUTH_CACHE.maxEntries) cache.delete(cache.keys().next().value!)
    // Unknown keys are cached only briefly, so a key created a moment ago works at once.
    cache.set(hash, { principal, expiresAt: Date.now() + (principal ? AUTH_CACHE.ttlMs : 250) })
    return principal
  }

  app.decorateRequest('principal', undefined)
  // Registered inside the /v1 scope (server/app.ts): every route there needs a key, whatever the
  // spelling of its URL; no string test on the raw URL, which the router decodes differently.
  app.addHook('onRequest', async (request) => {
    const key = presentedKey(request)
    if (!key) throw new ApiError(401, 'Missing API key: send Authorization: Bearer <API_KEY>')
    const kind = keyKind(key)
    if (!kind || key.length > MAX_KEY_LENGTH) throw new ApiError(401, 'Invalid API key')
    if (kind.environment !== options.environment) {
      throw new ApiError(401, `Invalid API key: a ${kind.environment} key cannot be used in the ${options.environment} environment`)
    }
    if (kind.agent) throw new ApiError(401, 'Invalid API key')
    const principal = await lookup(hashApiKey(key))
    if (!principal || principal.environment !== options.environment) throw new ApiError(401, 'Invalid API key')
    request.principal = principal
  })
})
