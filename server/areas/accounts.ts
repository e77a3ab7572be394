// The accounts slice: balance, stablecoin and external bank accounts, their lifecycle and holds,
// the sandbox's fund-ins, and the account and balance reads.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountLifecycleRoutes } from '../../commands/accounts/accountLifecycleRoutes.js'
import { balanceAccountRoutes } from '../../commands/accounts/balanceAccountRoutes.js'
import { externalBankAccountRoutes } from '../../commands/accounts/externalBankAccountRoutes.js'
import { holdRoutes } from '../../commands/accounts/holdRoutes.js'
import { stablecoinAccountRoutes } from '../../commands/accounts/stablecoinAccountRoutes.js'
import { sandboxFundsSimulationRoutes } from '../../commands/sandbox/fundsSimulationRoutes.js'
import { incomingMoneyReads } from '../../read-api/accounts/incomingMoney.js'
import { accountReadRoutes } from '../../read-api/accounts/routes.js'
import { balanceReadRoutes } from '../../read-api/balances/routes.js'
import type { AreaContext } from './areaContext.js'

export const accountsArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  const deps = { ...c, incomingMoney: incomingMoneyReads(c.db) }
  for (const routes of [
    balanceAccountRoutes,
    stablecoinAccountRoutes,
    externalBankAccountRoutes,
    accountLifecycleRoutes,
    holdRoutes,
    sandboxFundsSimulationRoutes,
  ])
    await app.register(routes, deps)
  await app.register(accountReadRoutes, c)
  await app.register(balanceReadRoutes, c)
}
