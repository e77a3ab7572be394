// The FX slice: pairs, indicative rates and the organization's FX settings, and the sandbox's own
// FX switches and provider behaviour.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sandboxFxRoutes } from '../../commands/sandbox/fxSimulationRoutes.js'
import { fxReads } from '../../read-api/fx/reads.js'
import { fxReadRoutes } from '../../read-api/fx/routes.js'
import type { AreaContext } from './areaContext.js'

export const fxArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const reads = fxReads(c.db, c.environment)
  await app.register(fxReadRoutes, c)
  await app.register(sandboxFxRoutes, { ...c, settingsResource: reads.settingsResource, customerPricing: reads.customerPricing })
}
