// The /v1 scope's second way in (server/auth/authenticate.ts): a request without an API key header
// that carries a console session cookie acts as exactly that session's key (its organization,
// environment and role), so the console reaches nothing its key could not. A dead session (expired,
// signed out, its key revoked) is 401 and its cookie cleared; a write must pass the origin check.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Environment } from '../../domain/shared/environment.js'
import { ApiError } from '../../http/errorBody.js'
import type { Principal } from '../../http/principal.js'
import { assertSameOrigin, isSafeMethod } from './sameOrigin.js'
import { clearSessionCookie, sessionTokenOf } from './sessionCookie.js'
import type { ConsoleSession, ConsoleSessionStore } from './sessionStore.js'

export type SessionAuthenticator = (request: FastifyRequest, reply: FastifyReply) => Promise<Principal | undefined>

export const principalOfSession = (session: ConsoleSession): Principal => ({
  organizationId: session.organizationId,
  keyId: session.keyId,
  environment: session.environment,
  role: session.role,
})

export function sessionExpired(): ApiError {
  return new ApiError(401, 'The console session has expired or was signed out: sign in again', 'console_session_invalid')
}

/** The principal of the request's session cookie; undefined when it carries none. */
export function sessionAuthenticator(store: ConsoleSessionStore, environment: Environment): SessionAuthenticator {
  return async (request, reply) => {
    const token = sessionTokenOf(request, environment)
    if (token === undefined) return undefined
    const session = await store.find(token)
    if (!session) {
      clearSessionCookie(reply, environment)
      throw sessionExpired()
    }
    if (!isSafeMethod(request.method)) assertSameOrigin(request)
    return principalOfSession(session)
  }
}
