// The audit area (issue 29): reads for auditors under /v1/audit, for auditor keys and the organization's
// full keys (agent keys are 403: server/auth/agentScope.ts lists none of them). A resource's history and
// a resource as of a revision or a time, both read from the event log; the signed checkpoints and their
// proofs (server/audit/checkpointRoutes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DomainError } from '../../domain/errors.js'
import { auditReads } from '../../projections/audit/auditReads.js'
import { auditAsOfRoutes } from '../../read-api/audit/asOfRoutes.js'
import { auditHistoryRoutes } from '../../read-api/audit/historyRoutes.js'
import { auditCheckpointRoutes } from '../audit/checkpointRoutes.js'
import type { AreaContext } from './areaContext.js'

export const auditArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  // An audit read is the organization's whole record: narrowed to one customer it would answer a question not asked.
  app.addHook('onRequest', async (request) => {
    if (request.onBehalfOf !== undefined)
      throw new DomainError('forbidden', 'on_behalf_of_not_allowed', 'Audit reads are organization-wide: omit X-On-Behalf-Of')
  })
  const reads = auditReads(c.commands.store)
  await app.register(auditHistoryRoutes, { reads })
  await app.register(auditAsOfRoutes, { reads })
  await app.register(auditCheckpointRoutes, { db: c.db, environment: c.environment, audit: c.audit })
}
