// The console's sign-in, outside /v1 (issue 30, point 4): POST /console/session exchanges an API key
// for a session cookie bound to the key (its organization, environment and role); GET says who is
// signed in and until when; DELETE signs out. The key travels once, in the sign-in body, and is never
// logged (server/logger.ts redacts apiKey); the token lives only in the cookie.
import { type RateLimitOptions, normalizeIP } from '@fastify/rate-limit'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { API_KEY_ROLES, KEY_PREFIXES, MAX_KEY_LENGTH, hashApiKey, keyKind } from '../../domain/organization/apiKeys.js'
import { type Environment, environmentSchema } from '../../domain/shared/environment.js'
import { ApiError, errorResponses } from '../../http/errorBody.js'
import { RATE_LIMIT_LIMITS } from '../rateLimit/rateLimit.js'
import { assertSameOrigin, originVerdict } from './sameOrigin.js'
import { sessionExpired } from './sessionAuth.js'
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './sessionCookie.js'
import { CONSOLE_SESSION_LIMITS } from './sessionLimits.js'
import { type ConsoleSession, type ConsoleSessionStore, idleExpiryOf } from './sessionStore.js'

export const CONSOLE_TAGS = ['Console']

/** The OpenAPI security scheme of the session cookie (server/openapi.ts). */
const SESSION_SECURITY = [{ consoleSession: [] }]

const consoleSessionSchema = z
  .object({
    organizationId: z.string().describe('The organization the key belongs to: every request of the session acts for it'),
    organizationName: z.string(),
    environment: environmentSchema.describe('The deployment’s environment (sandbox or production): shown at all times'),
    role: z.enum(API_KEY_ROLES).describe('What the key may do: FULL, AUDITOR (reads only) or OPERATOR (the /v1/operator routes only)'),
    keyId: z.string().describe('The API key the session speaks for (key_...)'),
    keyHint: z.string().describe('The key as it may be shown: its prefix and last four characters (sk_sandbox_…abcd)'),
    createdAt: z.string().describe('Sign-in time (ISO 8601)'),
    expiresAt: z.string().describe('The absolute end of the session, however busy (12 hours after sign-in)'),
    idleExpiresAt: z.string().describe('When it ends if no request comes before (30 minutes after the last one, moved once a minute)'),
  })
  .describe('The signed-in console session')

const signInBody = z.object({
  apiKey: z.string().min(1).max(MAX_KEY_LENGTH).describe('A platform API key (sk_sandbox_... or sk_live_...); agent keys are refused'),
})

function sessionJson(session: ConsoleSession): z.infer<typeof consoleSessionSchema> {
  return {
    organizationId: session.organizationId,
    organizationName: session.organizationName,
    environment: session.environment,
    role: session.role,
    keyId: session.keyId,
    keyHint: `${KEY_PREFIXES[session.environment]}…${session.last4}`,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    idleExpiresAt: new Date(Math.min(idleExpiryOf(session).getTime(), session.expiresAt.getTime())).toISOString(),
  }
}

const invalidKey = () => new ApiError(401, 'Invalid API key')

export type SessionRouteDeps = { store: ConsoleSessionStore; environment: Environment; signInPerIp: number }

export const consoleSessionRoutes: FastifyPluginAsyncZod<SessionRouteDeps> = async (app, { store, environment, signInPerIp }) => {
  const limitOptions: RateLimitOptions = {
    max: signInPerIp,
    timeWindow: CONSOLE_SESSION_LIMITS.signInWindowMs,
    keyGenerator: (request) => normalizeIP(request.ip),
    cache: RATE_LIMIT_LIMITS.maxTrackedClients,
  }
  const signInLimit = app.createRateLimit(limitOptions)
  // onRequest: before the body is read, so a flood of malformed sign-ins counts too.
  const limitSignIns = async (request: FastifyRequest) => {
    const limit = await signInLimit(request)
    if (!limit.isAllowed && limit.isExceeded) {
      throw new ApiError(
        429,
        `Too many sign-in attempts: at most ${limit.max} a minute from one address; retry in ${Math.max(1, limit.ttlInSeconds)} s`,
        'rate_limited',
      )
    }
  }

  app.post(
    '/console/session',
    {
      onRequest: limitSignIns,
      schema: {
        operationId: 'createConsoleSession',
        tags: CONSOLE_TAGS,
        summary: 'Sign in to the console with an API key',
        description:
          'Exchanges a platform API key for a session cookie (httpOnly, SameSite=Strict, Secure in production) bound to the key’s ' +
          'organization, environment and role. The /v1 operations accept the cookie when no Authorization or X-API-Key header is ' +
          'sent; a write by cookie must come from this origin (403 csrf_origin_mismatch or csrf_origin_missing). The session ends 12 ' +
          'hours after sign-in, after 30 minutes without a request, at sign-out, or when its key is revoked. 401 for an unknown, ' +
          'revoked or other-environment key; 403 agent_key_not_allowed for an agent key; 429 after too many attempts from one address.',
        security: [],
        body: signInBody,
        response: { 201: consoleSessionSchema, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      // No cookie authenticates a sign-in, but a page of another site must not sign a browser in to its own key.
      if (originVerdict(request) === 'cross-origin') assertSameOrigin(request)
      const { apiKey } = request.body
      const kind = keyKind(apiKey)
      if (!kind) throw invalidKey()
      if (kind.environment !== environment) {
        throw new ApiError(401, `Invalid API key: a ${kind.environment} key cannot be used in the ${environment} environment`)
      }
      if (kind.agent) throw new ApiError(403, 'The console signs in with a platform key, not an agent key', 'agent_key_not_allowed')
      const key = await store.keyOf(hashApiKey(apiKey))
      if (!key) throw invalidKey()
      const { token, session } = await store.open(key)
      setSessionCookie(reply, environment, token)
      reply.header('cache-control', 'no-store')
      return reply.code(201).send(sessionJson(session))
    },
  )

  app.get(
    '/console/session',
    {
      schema: {
        operationId: 'getConsoleSession',
        tags: CONSOLE_TAGS,
        summary: 'The signed-in console session',
        description:
          'Who the session cookie speaks for (organization, environment, key role, key id and hint) and when it ends. 401 ' +
          'console_session_missing without the cookie, console_session_invalid once it has ended (the cookie is cleared).',
        security: SESSION_SECURITY,
        response: { 200: consoleSessionSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const token = sessionTokenOf(request, environment)
      if (token === undefined) throw new ApiError(401, 'Not signed in to the console', 'console_session_missing')
      const session = await store.find(token)
      if (!session) {
        clearSessionCookie(reply, environment)
        throw sessionExpired()
      }
      reply.header('cache-control', 'no-store')
      return sessionJson(session)
    },
  )

  app.delete(
    '/console/session',
    {
      schema: {
        operationId: 'deleteConsoleSession',
        tags: CONSOLE_TAGS,
        summary: 'Sign out of the console',
        description:
          'Ends the session and clears its cookie; the same answer when there was none (signing out twice is not an error). Like every ' +
          'write by cookie it must come from this origin (403 csrf_origin_mismatch or csrf_origin_missing).',
        security: SESSION_SECURITY,
        response: { 200: z.object({ signedOut: z.literal(true) }).describe('Signed out'), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const token = sessionTokenOf(request, environment)
      if (token !== undefined) {
        assertSameOrigin(request)
        await store.close(token)
      }
      clearSessionCookie(reply, environment)
      reply.header('cache-control', 'no-store')
      return { signedOut: true as const }
    },
  )
}
