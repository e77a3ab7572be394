// The console session cookie: httpOnly (no script reads it), SameSite=Strict (no other site's page
// sends it), Path=/ (the console's pages and the /v1 API share it), Secure in production, where its
// name also takes the __Host- prefix (the browser then refuses it without Secure, with a Domain, or
// with another path). It lives no longer than the session's absolute expiry.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Environment } from '../../domain/shared/environment.js'
import { CONSOLE_SESSION_LIMITS } from './sessionLimits.js'

export const SESSION_COOKIE_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'console_session',
  production: '__Host-console_session',
}

const attributes = (environment: Environment) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: environment === 'production',
  path: '/',
})

export function setSessionCookie(reply: FastifyReply, environment: Environment, token: string): void {
  reply.setCookie(SESSION_COOKIE_NAMES[environment], token, {
    ...attributes(environment),
    maxAge: Math.floor(CONSOLE_SESSION_LIMITS.absoluteMs / 1_000),
  })
}

export function clearSessionCookie(reply: FastifyReply, environment: Environment): void {
  reply.clearCookie(SESSION_COOKIE_NAMES[environment], attributes(environment))
}

/** The session token the request's cookie carries, if any (an empty cookie carries none). */
export function sessionTokenOf(request: FastifyRequest, environment: Environment): string | undefined {
  const value = request.cookies[SESSION_COOKIE_NAMES[environment]]
  return value === undefined || value.length === 0 ? undefined : value
}
