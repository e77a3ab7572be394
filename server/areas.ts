// The server's one list of area plugins: every route plugin of every area, each registered inside
// /v1 the same way with the same deps object (built once in app.ts). A new aggregate adds its
// write and read plugins here; each plugin declares the part of AreaDeps it uses.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Kysely } from 'kysely'
import { accountLifecycleRoutes } from '../commands/accounts/accountLifecycleRoutes.js'
import { balanceAccountRoutes } from '../commands/accounts/balanceAccountRoutes.js'
import { externalBankAccountRoutes } from '../commands/accounts/externalBankAccountRoutes.js'
import { holdRoutes } from '../commands/accounts/holdRoutes.js'
import { stablecoinAccountRoutes } from '../commands/accounts/stablecoinAccountRoutes.js'
import { type CounterpartyRouteDeps, counterpartyWriteRoutes } from '../commands/counterparties/routes.js'
import { externalWalletRoutes } from '../commands/external-wallets/routes.js'
import { associatedWriteRoutes } from '../commands/customers/associatedRoutes.js'
import { customerLifecycleRoutes } from '../commands/customers/lifecycleRoutes.js'
import { sessionWriteRoutes } from '../commands/customers/sessionRoutes.js'
import { verificationWriteRoutes } from '../commands/customers/verificationRoutes.js'
import type { DocumentContentStore } from '../domain/document/contentStore.js'
import { documentWriteRoutes } from '../commands/documents/routes.js'
import type { CommandRuntime } from '../commands/runtime/commandRuntime.js'
import type { AccountRouteDeps } from '../commands/accounts/deps.js'
import { sandboxFundsSimulationRoutes } from '../commands/sandbox/fundsSimulationRoutes.js'
import { sandboxReviewSimulationRoutes } from '../commands/sandbox/reviewSimulationRoutes.js'
import { termsWriteRoutes } from '../commands/terms/routes.js'
import { sandboxCreditLineRoutes } from '../commands/sandbox/creditLineSimulationRoutes.js'
import { type LiquidityFacilityRouteDeps, liquidityFacilityWriteRoutes } from '../commands/liquidity-facility/routes.js'
import { liquidityFacilityReadRoutes } from '../read-api/liquidity-facility/routes.js'
import { type WebhookEndpointRouteDeps, webhookEndpointWriteRoutes } from '../commands/webhook-endpoints/routes.js'
import type { Environment } from '../domain/shared/environment.js'
import { createTransferRoutes } from '../commands/transfers/createTransferRoutes.js'
import type { TransferRouteDeps } from '../commands/transfers/deps.js'
import { transferLifecycleRoutes } from '../commands/transfers/transferLifecycleRoutes.js'
import { refundRoutes } from '../commands/transfers/refundRoutes.js'
import { sandboxTransferSimulationRoutes } from '../commands/sandbox/transferSimulationRoutes.js'
import { sandboxFixedRouteSimulationRoutes } from '../commands/sandbox/fixedRouteSimulationRoutes.js'
import { createFixedRouteRoutes } from '../commands/fixed-routes/createFixedRouteRoutes.js'
import { fixedRouteLifecycleRoutes } from '../commands/fixed-routes/fixedRouteLifecycleRoutes.js'
import type { FixedRouteRouteDeps } from '../commands/fixed-routes/deps.js'
import type { ReadDatabase } from '../projections/schema.js'
import type { DataProtection } from '../events/protection/dataProtection.js'
import { accountReadRoutes } from '../read-api/accounts/routes.js'
import { counterpartyReadRoutes } from '../read-api/counterparties/routes.js'
import { balanceReadRoutes } from '../read-api/balances/routes.js'
import { customerReadRoutes } from '../read-api/customers/routes.js'
import { documentReadRoutes } from '../read-api/documents/routes.js'
import { fixedRouteReadRoutes } from '../read-api/fixed-routes/routes.js'
import { transferReadRoutes } from '../read-api/transfers/routes.js'
import { webhookEndpointReadRoutes } from '../read-api/webhook-endpoints/routes.js'
import { webhookMessageRoutes } from '../webhooks/api/webhookMessageRoutes.js'
import type { WebhookDelivery } from '../webhooks/webhookDelivery.js'

export type AreaDeps = {
  db: Kysely<ReadDatabase>
  environment: Environment
  /** The command runtime: bound deciders, stream lock, read-your-writes wait. */
  commands: CommandRuntime
  webhooks: WebhookDelivery
  webhookEndpoints: WebhookEndpointRouteDeps['webhookEndpoints']
  documentContents: DocumentContentStore
  /** Opens what the read models keep sealed (customers' personal data, signing secrets, documents). */
  protection: DataProtection
  verification: { urlBase: string; sessionTtlMs: number }
  counterparties: CounterpartyRouteDeps['counterparties']
  /** What time commands that depend on it (credit line fees) decide at; tests step it. */
  clock: () => Date
  liquidityFacility: LiquidityFacilityRouteDeps['liquidityFacility']
  transferFunding: TransferRouteDeps['transferFunding']
  fixedRoutes: FixedRouteRouteDeps['fixedRoutes']
  incomingMoney: AccountRouteDeps['incomingMoney']
}

export const AREA_PLUGINS: FastifyPluginAsyncZod<AreaDeps>[] = [
  // webhook endpoints
  webhookEndpointWriteRoutes,
  webhookEndpointReadRoutes,
  // customers
  customerLifecycleRoutes,
  verificationWriteRoutes,
  associatedWriteRoutes,
  sessionWriteRoutes,
  customerReadRoutes,
  // accounts and balances
  balanceAccountRoutes,
  stablecoinAccountRoutes,
  externalBankAccountRoutes,
  accountLifecycleRoutes,
  holdRoutes,
  accountReadRoutes,
  balanceReadRoutes,
  // sandbox
  sandboxReviewSimulationRoutes,
  sandboxFundsSimulationRoutes,
  // documents
  documentWriteRoutes,
  documentReadRoutes,
  // terms
  termsWriteRoutes,
  // webhook messages
  webhookMessageRoutes,
  // counterparties
  counterpartyWriteRoutes,
  counterpartyReadRoutes,
  // external wallets
  externalWalletRoutes,
  // liquidity facility
  liquidityFacilityWriteRoutes,
  liquidityFacilityReadRoutes,
  sandboxCreditLineRoutes,
  // transfers
  createTransferRoutes,
  transferLifecycleRoutes,
  refundRoutes,
  sandboxTransferSimulationRoutes,
  transferReadRoutes,
  // fixed routes
  createFixedRouteRoutes,
  fixedRouteLifecycleRoutes,
  sandboxFixedRouteSimulationRoutes,
  fixedRouteReadRoutes,
]
