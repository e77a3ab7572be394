// Mints a verification session: id, hosted URL with an unguessable token, expiry.
import type { NewSession } from '../../domain/customer/commands.js'
import { newId } from '../../domain/shared/ids.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import type { CustomerRouteDeps } from './deps.js'

/** Random bytes in the URL token: the link itself is the credential of the person verifying. */
const TOKEN_BYTES = 24

export function newSession(verification: CustomerRouteDeps['verification'], now: Date): NewSession {
  const sessionId = newId('vsess', now.getTime())
  const token = secureRandomBytes(TOKEN_BYTES).toString('base64url')
  return {
    sessionId,
    verificationUrl: `${verification.urlBase.replace(/\/+$/, '')}/sessions/${sessionId}?token=${token}`,
    expiresAt: new Date(now.getTime() + verification.sessionTtlMs).toISOString(),
  }
}
