// The audit checkpoints slice (issue 29): the latest signed checkpoint, consistency and inclusion
// proofs, and the sandbox's seal-now (server/audit/checkpointRoutes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { auditCheckpointRoutes } from '../audit/checkpointRoutes.js'
import type { AreaContext } from './areaContext.js'

export const auditCheckpointsArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  await app.register(auditCheckpointRoutes, { db: c.db, environment: c.environment, audit: c.audit })
}
