// The verification-session expiry timer, started by server/main.ts (until the durable scheduler
// runs it from the server's list of background jobs).
import { startVerificationExpiry } from '../commands/customers/verificationExpiry.js'
import { findDueSessions } from '../read-api/customers/queries.js'
import type { Runtime } from './runtime.js'

/** Starts the verification-session expiry timer; stop() before closing the runtime. */
export function startCustomerTimers(runtime: Pick<Runtime, 'config' | 'db' | 'store'>, onError: (error: unknown) => void) {
  return startVerificationExpiry({
    store: runtime.store,
    findDue: (now, limit) => findDueSessions(runtime.db, now, limit),
    intervalMs: runtime.config.VERIFICATION_EXPIRY_INTERVAL_MS,
    onError,
  })
}
