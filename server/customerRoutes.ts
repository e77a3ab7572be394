// Customers and onboarding wired into the app: every route of customers, documents, terms and the
// sandbox review, with their dependencies; and the verification-session expiry timer.
import type { FastifyPluginAsync } from 'fastify'
import { associatedWriteRoutes } from '../commands/customers/associatedRoutes.js'
import { customerWriteRoutes } from '../commands/customers/customerRoutes.js'
import type { CustomerRouteDeps } from '../commands/customers/deps.js'
import { sessionWriteRoutes } from '../commands/customers/sessionRoutes.js'
import { startVerificationExpiry } from '../commands/customers/verificationExpiry.js'
import { verificationWriteRoutes } from '../commands/customers/verificationRoutes.js'
import { postgresDocumentContentStore } from '../projections/documentContentStore.js'
import { documentWriteRoutes } from '../commands/documents/routes.js'
import { sandboxCustomerRoutes } from '../commands/sandbox/customerReviewRoutes.js'
import { termsWriteRoutes } from '../commands/terms/routes.js'
import { customerReadRoutes } from '../read-api/customers/routes.js'
import { findDueSessions } from '../read-api/customers/queries.js'
import { documentReadRoutes } from '../read-api/documents/routes.js'
import type { Runtime } from './runtime.js'

type Deps = { runtime: Pick<Runtime, 'config' | 'db' | 'store'>; waitForProjections: CustomerRouteDeps['waitForProjections'] }

export const customerRoutes: FastifyPluginAsync<Deps> = async (v1, { runtime, waitForProjections }) => {
  const { config, db, store } = runtime
  const deps: CustomerRouteDeps = {
    store, environment: config.APP_ENV, waitForProjections,
    verification: { urlBase: config.VERIFICATION_URL_BASE, sessionTtlMs: config.VERIFICATION_SESSION_TTL_MS },
  }
  await v1.register(customerWriteRoutes, deps)
  await v1.register(verificationWriteRoutes, deps)
  await v1.register(associatedWriteRoutes, deps)
  await v1.register(sessionWriteRoutes, deps)
  await v1.register(sandboxCustomerRoutes, deps)
  await v1.register(customerReadRoutes, { db })
  await v1.register(documentWriteRoutes, { store, contents: postgresDocumentContentStore(db), waitForProjections })
  await v1.register(documentReadRoutes, { db })
  await v1.register(termsWriteRoutes, { store, waitForProjections, urlBase: config.VERIFICATION_URL_BASE })
}

/** Starts the verification-session expiry timer (server/main.ts); stop() before closing the runtime. */
export function startCustomerTimers(runtime: Pick<Runtime, 'config' | 'db' | 'store'>, onError: (error: unknown) => void) {
  return startVerificationExpiry({
    store: runtime.store,
    findDue: (now, limit) => findDueSessions(runtime.db, now, limit),
    intervalMs: runtime.config.VERIFICATION_EXPIRY_INTERVAL_MS,
    onError,
  })
}
