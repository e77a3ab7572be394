// Every projector the service runs, by name.
import { accountCountsProjector } from './accountCounts.js'
import { accountsProjector } from './accounts.js'
import { counterpartiesProjector } from './counterparties.js'
import { balancesProjector } from './balances.js'
import { customersProjector } from './customers.js'
import { documentsProjector } from './documents.js'
import { fixedRoutesProjector } from './fixedRoutes.js'
import { fxQuotesProjector } from './fxQuotes.js'
import { fxTradesProjector } from './fxTrades.js'
import { agentsProjector } from './agents.js'
import { agentSpendProjector } from './agentSpend.js'
import { fxSettingsProjector } from './fxSettings.js'
import { liquidityFacilityProjector } from './liquidityFacility.js'
import { organizationsProjector } from './organizations.js'
import type { Projector } from './runtime/projector.js'
import { transfersProjector } from './transfers.js'
import { transferDraftsProjector } from './transferDrafts.js'
import { invoicesProjector } from './invoices.js'
import { webhookEndpointsProjector } from './webhookEndpoints.js'

export const allProjectors: readonly Projector[] = [
  organizationsProjector,
  webhookEndpointsProjector,
  customersProjector,
  documentsProjector,
  accountsProjector,
  accountCountsProjector,
  counterpartiesProjector,
  liquidityFacilityProjector,
  balancesProjector,
  transfersProjector,
  fixedRoutesProjector,
  fxSettingsProjector,
  fxQuotesProjector,
  fxTradesProjector,
  agentsProjector,
  agentSpendProjector,
  transferDraftsProjector,
  invoicesProjector,
]
