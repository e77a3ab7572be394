// The transfers slice: create, submit, cancel, fund, refund, the sandbox's rail simulation, and reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sandboxTransferSimulationRoutes } from '../../commands/sandbox/transferSimulationRoutes.js'
import { createTransferRoutes } from '../../commands/transfers/createTransferRoutes.js'
import { refundRoutes } from '../../commands/transfers/refundRoutes.js'
import { transferLifecycleRoutes } from '../../commands/transfers/transferLifecycleRoutes.js'
import { agentApprovalRoutes } from '../../commands/transfers/agentApprovalRoutes.js'
import { transferFundingReads } from '../../read-api/accounts/balanceSources.js'
import { transferReadRoutes } from '../../read-api/transfers/routes.js'
import type { AreaContext } from './areaContext.js'

export const transfersArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const deps = { ...c, transferFunding: transferFundingReads(c.db) }
  for (const routes of [createTransferRoutes, transferLifecycleRoutes, agentApprovalRoutes, refundRoutes, sandboxTransferSimulationRoutes])
    await app.register(routes, deps)
  await app.register(transferReadRoutes, c)
}
