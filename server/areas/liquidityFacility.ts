// The liquidity facility slice: the credit line's draws and repayments, its reads, and the
// sandbox's credit line set-up.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { liquidityFacilityWriteRoutes } from '../../commands/liquidity-facility/routes.js'
import { sandboxCreditLineRoutes } from '../../commands/sandbox/creditLineSimulationRoutes.js'
import { liquidityFacilityReads } from '../../read-api/liquidity-facility/reads.js'
import { liquidityFacilityReadRoutes } from '../../read-api/liquidity-facility/routes.js'
import type { AreaContext } from './areaContext.js'

export const liquidityFacilityArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const deps = { ...c, liquidityFacility: liquidityFacilityReads(c.db) }
  await app.register(liquidityFacilityWriteRoutes, deps)
  await app.register(liquidityFacilityReadRoutes, c)
  await app.register(sandboxCreditLineRoutes, deps)
}
