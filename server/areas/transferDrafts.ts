// The transfer drafts slice (issue 27): registering a draft for platform approval, reading its
// approval record, and the sandbox's screening step. Its timers are in commands/scheduler, its
// binding to a transfer in the transfers slice (POST /v1/transfers with draftId).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sandboxTransferDraftRoutes } from '../../commands/sandbox/transferDraftSimulationRoutes.js'
import { registerDraftRoutes } from '../../commands/transfer-drafts/registerDraftRoutes.js'
import { transferDraftReadRoutes } from '../../read-api/transfer-drafts/draftRoutes.js'
import type { AreaContext } from './areaContext.js'

export const transferDraftsArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  await app.register(registerDraftRoutes, c)
  await app.register(transferDraftReadRoutes, c)
  await app.register(sandboxTransferDraftRoutes, c)
}
