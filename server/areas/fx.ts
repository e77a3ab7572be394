// The FX slice: pairs, indicative rates, firm quotes, trades and the organization's FX settings, and
// the sandbox's own FX switches, provider behaviour and trade simulations.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { fxQuoteWriteRoutes } from '../../commands/fx-quotes/routes.js'
import { fxTradeWriteRoutes } from '../../commands/fx-trades/routes.js'
import { sandboxFxRoutes } from '../../commands/sandbox/fxSimulationRoutes.js'
import { sandboxFxTradeRoutes } from '../../commands/sandbox/fxTradeSimulationRoutes.js'
import { fxReads } from '../../read-api/fx/reads.js'
import { fxQuoteReadRoutes } from '../../read-api/fx/quoteRoutes.js'
import { fxTradeReadRoutes } from '../../read-api/fx/tradeRoutes.js'
import { fxReadRoutes } from '../../read-api/fx/routes.js'
import type { AreaContext } from './areaContext.js'

export const fxArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const reads = fxReads(c.db, c.environment)
  await app.register(fxReadRoutes, c)
  await app.register(fxQuoteWriteRoutes, c)
  await app.register(fxQuoteReadRoutes, c)
  await app.register(fxTradeWriteRoutes, c)
  await app.register(fxTradeReadRoutes, c)
  await app.register(sandboxFxTradeRoutes, c)
  await app.register(sandboxFxRoutes, { ...c, settingsResource: reads.settingsResource, customerPricing: reads.customerPricing })
}
