// The customers slice: lifecycle, verification, associated parties, verification sessions, the
// sandbox review and approval shortcut, documents and terms they reference, and reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { associatedWriteRoutes } from '../../commands/customers/associatedRoutes.js'
import { customerLifecycleRoutes } from '../../commands/customers/lifecycleRoutes.js'
import { sessionWriteRoutes } from '../../commands/customers/sessionRoutes.js'
import { verificationWriteRoutes } from '../../commands/customers/verificationRoutes.js'
import { documentWriteRoutes } from '../../commands/documents/routes.js'
import { sandboxApprovalSimulationRoutes } from '../../commands/sandbox/approvalSimulationRoutes.js'
import { sandboxReviewSimulationRoutes } from '../../commands/sandbox/reviewSimulationRoutes.js'
import { termsWriteRoutes } from '../../commands/terms/routes.js'
import { postgresDocumentContentStore } from '../../projections/documentContentStore.js'
import { customerReadRoutes } from '../../read-api/customers/routes.js'
import { documentReadRoutes } from '../../read-api/documents/routes.js'
import type { AreaContext } from './areaContext.js'

export const customersArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const verification = { urlBase: c.config.VERIFICATION_URL_BASE, sessionTtlMs: c.config.VERIFICATION_SESSION_TTL_MS }
  const deps = { ...c, verification }
  for (const routes of [customerLifecycleRoutes, verificationWriteRoutes, associatedWriteRoutes, sessionWriteRoutes])
    await app.register(routes, deps)
  await app.register(customerReadRoutes, c)
  await app.register(sandboxReviewSimulationRoutes, c)
  const documentContents = postgresDocumentContentStore(c.db, c.protection)
  await app.register(documentWriteRoutes, { ...c, documentContents })
  await app.register(sandboxApprovalSimulationRoutes, { ...c, documentContents })
  await app.register(documentReadRoutes, c)
  await app.register(termsWriteRoutes, deps)
}
