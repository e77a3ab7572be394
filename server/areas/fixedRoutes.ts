// The fixed routes slice: create (bounded per customer), disable and enable, the sandbox's deposits,
// and reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createFixedRouteRoutes } from '../../commands/fixed-routes/createFixedRouteRoutes.js'
import { fixedRouteLifecycleRoutes } from '../../commands/fixed-routes/fixedRouteLifecycleRoutes.js'
import { sandboxFixedRouteSimulationRoutes } from '../../commands/sandbox/fixedRouteSimulationRoutes.js'
import { incomingMoneyReads } from '../../read-api/accounts/incomingMoney.js'
import { countCustomerFixedRoutes } from '../../read-api/fixed-routes/queries.js'
import { fixedRouteReadRoutes } from '../../read-api/fixed-routes/routes.js'
import type { AreaContext } from './areaContext.js'

export const fixedRoutesArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const deps = {
    ...c,
    incomingMoney: incomingMoneyReads(c.db),
    fixedRoutes: { countOf: (organizationId: string, customerId: string) => countCustomerFixedRoutes(c.db, organizationId, customerId) },
  }
  for (const routes of [createFixedRouteRoutes, fixedRouteLifecycleRoutes, sandboxFixedRouteSimulationRoutes])
    await app.register(routes, deps)
  await app.register(fixedRouteReadRoutes, c)
}
