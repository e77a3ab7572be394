// The counterparties slice: counterparties (refused while an account names them) and the external
// wallets matched to them, and their reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { counterpartyWriteRoutes } from '../../commands/counterparties/routes.js'
import { externalWalletRoutes } from '../../commands/external-wallets/routes.js'
import { counterpartyInUse } from '../../read-api/counterparties/accountUsage.js'
import { counterpartyReadRoutes } from '../../read-api/counterparties/routes.js'
import type { AreaContext } from './areaContext.js'

export const counterpartiesArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const counterparties = {
    inUse: (organizationId: string, counterpartyId: string) => counterpartyInUse(c.db, organizationId, counterpartyId),
  }
  await app.register(counterpartyWriteRoutes, { ...c, counterparties })
  await app.register(counterpartyReadRoutes, c)
  await app.register(externalWalletRoutes, c)
}
