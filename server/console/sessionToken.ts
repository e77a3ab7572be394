// Console session tokens: opaque and random, shown to the browser once (in its cookie); only their
// SHA-256 is stored (console_sessions.token_hash), so a copy of the database opens no session.
import { createHash } from 'node:crypto'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import { CONSOLE_SESSION_LIMITS } from './sessionLimits.js'

const TOKEN_PREFIX = 'cs_'
/** The prefix and the base64url of the random bytes (no padding): any other cookie value is refused unread. */
const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{${Math.ceil((CONSOLE_SESSION_LIMITS.tokenBytes * 4) / 3)}}$`)

export function newSessionToken(): string {
  return `${TOKEN_PREFIX}${secureRandomBytes(CONSOLE_SESSION_LIMITS.tokenBytes).toString('base64url')}`
}

export const isSessionToken = (value: string): boolean => TOKEN_SHAPE.test(value)

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
