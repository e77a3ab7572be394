// The agents slice: write routes (create, change, pause, resume, revoke, keys) and reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { agentWriteRoutes } from '../../commands/agents/routes.js'
import { agentReadRoutes } from '../../read-api/agents/routes.js'
import type { AreaContext } from './areaContext.js'

export const agentsArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  await app.register(agentWriteRoutes, c)
  await app.register(agentReadRoutes, c)
}
