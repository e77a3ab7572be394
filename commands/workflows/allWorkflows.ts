// Every workflow the service runs: one line per workflow.
import { creditDrawToTreasury } from './creditDrawToTreasury.js'
import { expireSessionsOnArchive } from './expireSessionsOnArchive.js'
import { fxTradeTransfers } from './fxTradeTransfers.js'
import { invoicePayments } from './invoicePayments.js'
import { releaseAgentSpend } from './releaseAgentSpend.js'
import { shredErasedCustomerData } from './shredErasedCustomerData.js'
import { sweepFixedRouteDeposits } from './sweepFixedRouteDeposits.js'
import { systemTransfers } from './systemTransfers.js'
import { reverseReclaimedTransfers } from './reverseReclaimedTransfers.js'
import { transferMoney } from './transferMoney.js'
import type { Workflow } from './workflow.js'

export const allWorkflows: readonly Workflow[] = [
  expireSessionsOnArchive,
  shredErasedCustomerData,
  creditDrawToTreasury,
  transferMoney,
  systemTransfers,
  sweepFixedRouteDeposits,
  reverseReclaimedTransfers,
  fxTradeTransfers,
  releaseAgentSpend,
  invoicePayments,
]
