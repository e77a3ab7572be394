// The schemas the OpenAPI document names as components (`#/components/schemas/<Name>`), registered
// once in zod's global registry: every route that uses one (or a described, optional or nullable
// copy of it) then refers to it with $ref instead of repeating it. The ids of path parameters
// register themselves (http/idParam.ts). Names are stable: SDKs turn them into type names.
import { z } from 'zod'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { externalWalletResource } from '../../domain/account/externalWallet.js'
import { holdResourceSchema } from '../../domain/account/holdResource.js'
import { agentKeyResource, agentLimitsResource, agentResource } from '../../domain/agent/resource.js'
import { counterpartyResource } from '../../domain/counterparty/resource.js'
import {
  associatedEntityResource,
  complianceResource,
  customerResource,
  verificationResult,
  verificationSessionResource,
} from '../../domain/customer/resource.js'
import { savedVerificationResource } from '../../domain/customer/verificationView.js'
import { documentResource } from '../../domain/document/resource.js'
import { fixedRouteResourceSchema } from '../../domain/fixed-route/resource.js'
import { fxQuoteResource } from '../../domain/fx-quote/resource.js'
import { fxTradeResource } from '../../domain/fx-trade/resource.js'
import { fxCustomerPricingResource, fxRateResource, fxSettingsResource } from '../../domain/fx/resource.js'
import { invoiceResource } from '../../domain/invoice/resource.js'
import { drawResource, liquidityFacilityResource, repaymentResource } from '../../domain/liquidity-facility/resource.js'
import { addressSchema } from '../../domain/shared/address.js'
import { chainSchema, walletCurrencySchema } from '../../domain/shared/chain/chains.js'
import { countryCodeSchema } from '../../domain/shared/country.js'
import { emailSchema } from '../../domain/shared/email.js'
import { metadataSchema } from '../../domain/shared/metadata.js'
import { majorDecimalAmount, minorAmountOrZero, positiveMinorAmount } from '../../domain/shared/money/amountInput.js'
import { moneyWire } from '../../domain/shared/money/money.js'
import { accountCurrencyCodeSchema, paymentRailSchema } from '../../domain/shared/paymentRails.js'
import { termsAgreementResource } from '../../domain/terms/resource.js'
import { transferDraftResource } from '../../domain/transfer-draft/resource.js'
import { depositInstructionsResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { webhookEndpointResource, webhookSecretResource } from '../../domain/webhook-endpoint/resource.js'
import { checkpointRecordSchema } from '../../events/integrity/checkpointRecord.js'
import { deletedResource } from '../../http/deletedResource.js'
import { errorBodySchema } from '../../http/errorBody.js'
import { expandedAccountResource } from '../../read-api/accounts/expand.js'
import { accountBalanceResource, balanceTransactionResource, currencyBalanceResource } from '../../read-api/balances/resources.js'
import { expandedTransferResource } from '../../read-api/transfers/expand.js'
import {
  envelopeSchema,
  webhookAttemptResource,
  webhookDeliveryResource,
  webhookMessageDetailResource,
  webhookMessageResource,
} from '../../webhooks/api/resources.js'

type Extra = { example?: unknown }

/** Names `schema` `id` in the document, keeping the description and other metadata it already has. */
function component(schema: z.ZodType, id: string, extra: Extra = {}): void {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id, ...extra })
}

// Value objects, with examples a reader can copy.
component(errorBodySchema, 'Error', {
  example: {
    error: 'ValidationError',
    code: 'validation_failed',
    message: 'Request validation failed',
    statusCode: 422,
    details: [{ field: 'body.amount', message: 'must be a positive integer of minor units' }],
    requestId: 'req_01jdq5w1e2r3t4y5v6x7z8m9n0',
  },
})
component(moneyWire, 'Money', { example: { currency: 'USD', exponent: 2, value: '4000', displayValue: '40.00' } })
component(positiveMinorAmount, 'MinorAmount', { example: '4000' })
component(minorAmountOrZero, 'MinorAmountOrZero', { example: '0' })
component(majorDecimalAmount, 'MajorAmount', { example: '125.50' })
component(countryCodeSchema, 'CountryCode', { example: 'US' })
component(accountCurrencyCodeSchema, 'AccountCurrencyCode', { example: 'USD' })
component(walletCurrencySchema, 'WalletCurrency', { example: 'USDC' })
component(chainSchema, 'Chain', { example: 'SOLANA' })
component(paymentRailSchema, 'PaymentRail', { example: 'ACH' })
component(addressSchema, 'Address', {
  example: { addressLine1: '1 Main Street', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
})
component(emailSchema, 'Email', { example: 'pat@example.com' })
component(metadataSchema, 'Metadata', { example: { nickname: 'Operating', tags: ['ops'] } })
component(deletedResource, 'DeletedResource')

// Resources: what more than one operation answers (a read, a write, a list of them).
component(customerResource, 'Customer')
component(verificationResult, 'VerificationResult')
component(savedVerificationResource, 'SavedVerification')
component(complianceResource, 'ComplianceChecklist')
component(verificationSessionResource, 'VerificationSession')
component(associatedEntityResource, 'AssociatedEntity')
component(documentResource, 'Document')
component(termsAgreementResource, 'TermsAgreement')
component(accountResourceSchema, 'Account')
component(expandedAccountResource, 'ExpandedAccount')
component(externalWalletResource, 'ExternalWallet')
component(holdResourceSchema, 'Hold')
component(accountBalanceResource, 'AccountBalance')
component(currencyBalanceResource, 'CurrencyBalance')
component(balanceTransactionResource, 'BalanceTransaction')
component(counterpartyResource, 'Counterparty')
component(transferResourceSchema, 'Transfer')
component(expandedTransferResource, 'ExpandedTransfer')
component(depositInstructionsResource, 'DepositInstructions')
component(transferDraftResource, 'TransferDraft')
component(fixedRouteResourceSchema, 'FixedRoute')
component(fxRateResource, 'FxRate')
component(fxQuoteResource, 'FxQuote')
component(fxTradeResource, 'FxTrade')
component(fxSettingsResource, 'FxSettings')
component(fxCustomerPricingResource, 'FxCustomerPricing')
component(liquidityFacilityResource, 'LiquidityFacility')
component(drawResource, 'Draw')
component(repaymentResource, 'Repayment')
component(invoiceResource, 'Invoice')
component(agentResource, 'Agent')
component(agentKeyResource, 'AgentKey')
component(agentLimitsResource, 'AgentLimits')
component(webhookEndpointResource, 'WebhookEndpoint')
component(webhookSecretResource, 'WebhookSecret')
component(envelopeSchema, 'WebhookEvent')
component(webhookMessageResource, 'WebhookMessage')
component(webhookMessageDetailResource, 'WebhookMessageDetail')
component(webhookDeliveryResource, 'WebhookDelivery')
component(webhookAttemptResource, 'WebhookAttempt')
component(checkpointRecordSchema, 'Checkpoint')
