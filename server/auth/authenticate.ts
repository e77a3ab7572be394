// Authenticates every /v1 route: `Authorization: Bearer <key>` or `X-API-Key: <key>`, for the
// deployment's environment only. Lookups are cached briefly; a revoked key stops working within
// the cache's TTL. Without either header, a console session cookie stands for its key (`sessions`:
// server/console/sessionAuth.ts), read afresh on every request.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Environment } from '../../domain/shared/environment.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { ApiError } from '../../http/errorBody.js'
import { MAX_KEY_LENGTH, hashApiKey, keyKind } from '../../domain/organization/apiKeys.js'
import type { Principal } from '../../http/principal.js'
import type { SessionAuthenticator } from '../console/sessionAuth.js'
import { agentPrincipal } from './agentKeys.js'

export const AUTH_CACHE = { ttlMs: 5_000, maxEntries: 10_000 } as const

const CREDENTIAL_HEADERS = { authorization: 'authorization', apiKey: 'x-api-key' } as const

function bearerToken(authorization: string): string {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization)
  if (!match?.[1]) throw new ApiError(401, 'Authorization header must use the Bearer scheme')
  return match[1]
}

// The one key a request presents. Every occurrence of either header counts (read from the raw
// headers: Node keeps only the first Authorization and joins repeated X-API-Key values), and they
// must all name the same key: a request that carries two different credentials is refused rather
// than served as whichever one a header order favours. An empty header carries no credential.
function presentedKey(request: FastifyRequest): string | undefined {
  const raw = request.raw.rawHeaders
  let key: string | undefined
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase()
    const value = raw[index + 1]!
    if (value.length === 0) continue
    let presented: string
    if (name === CREDENTIAL_HEADERS.authorization) presented = bearerToken(value)
    else if (name === CREDENTIAL_HEADERS.apiKey) presented = value
    else continue
    if (key !== undefined && key !== presented) {
      throw new ApiError(401, 'Conflicting credentials: the Authorization and X-API-Key headers name different API keys')
    }
    key = presented
  }
  return key
}

export const authenticate = fp(
  async (
    app: FastifyInstance,
    options: { db: Kysely<ReadDatabase>; environment: Environment; clock?: () => Date; sessions?: SessionAuthenticator },
  ) => {
    const cache = new Map<string, { principal: Principal | null; expiresAt: number }>()

    async function lookup(hash: string): Promise<Principal | null> {
      const hit = cache.get(hash)
      if (hit && hit.expiresAt > Date.now()) return hit.principal
      const row = await options.db
        .selectFrom('api_keys')
        .select(['id', 'organization_id', 'environment', 'role'])
        .where('key_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      const principal = row ? { organizationId: row.organization_id, keyId: row.id, environment: row.environment, role: row.role } : null
      if (cache.size >= AUTH_CACHE.maxEntries) cache.delete(cache.keys().next().value!)
      // Unknown keys are cached only briefly, so a key created a moment ago works at once.
      cache.set(hash, { principal, expiresAt: Date.now() + (principal ? AUTH_CACHE.ttlMs : 250) })
      return principal
    }

    app.decorateRequest('principal', undefined)
    // Registered inside the /v1 scope (server/app.ts): every route there needs a key, whatever the
    // spelling of its URL; no string test on the raw URL, which the router decodes differently.
    app.addHook('onRequest', async (request, reply) => {
      const key = presentedKey(request)
      if (!key) {
        const session = await options.sessions?.(request, reply)
        if (session) {
          request.principal = session
          return
        }
        throw new ApiError(401, 'Missing API key: send Authorization: Bearer <API_KEY>')
      }
      const kind = keyKind(key)
      if (!kind || key.length > MAX_KEY_LENGTH) throw new ApiError(401, 'Invalid API key')
      if (kind.environment !== options.environment) {
        throw new ApiError(401, `Invalid API key: a ${kind.environment} key cannot be used in the ${options.environment} environment`)
      }
      if (kind.agent) {
        request.principal = await agentPrincipal(options.db, options.environment, hashApiKey(key), options.clock?.() ?? new Date())
        return
      }
      const principal = await lookup(hashApiKey(key))
      if (!principal || principal.environment !== options.environment) throw new ApiError(401, 'Invalid API key')
      request.principal = principal
    })
  },
)
