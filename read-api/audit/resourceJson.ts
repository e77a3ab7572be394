// The JSON a folded row reads as: made by each resource's live read mapping (the same function and the
// same response schema its GET route uses), so an as-of read of the current revision is the JSON value
// the live read answers (the key order of a nested object may differ: a live row keeps it in jsonb,
// which orders keys its own way). Sent as text: one route answers eight kinds of resource.
import type { z } from 'zod'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { agentResource, toAgentResource } from '../../domain/agent/resource.js'
import { customerResource, toCustomerResource } from '../../domain/customer/resource.js'
import { fxTradeResource, toFxTradeResource } from '../../domain/fx-trade/resource.js'
import { invoiceResource, toInvoiceResource } from '../../domain/invoice/resource.js'
import { toTransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { toWebhookEndpointResource, webhookEndpointResource } from '../../domain/webhook-endpoint/resource.js'
import type { AuditResourceType, FoldedRow } from '../../projections/audit/resourceFolds.js'
import { accountBalanceResource, toCurrencyBalance } from '../balances/resources.js'

/** What a route's response serializer does with its schema: encode, then stringify. */
const encoded = <S extends z.ZodType>(schema: S, value: z.output<S>): string => JSON.stringify(schema.encode(value))

const RESOURCE_JSON: { readonly [T in AuditResourceType]: (row: FoldedRow[T]) => string } = {
  // GET /v1/customers/{id}
  CUSTOMER: (customer) => encoded(customerResource, toCustomerResource(customer)),
  // GET /v1/accounts/{id}: the row's resource as stored
  ACCOUNT: (account) => encoded(accountResourceSchema, account),
  // GET /v1/accounts/{id}/balance
  BALANCE: (b) =>
    encoded(accountBalanceResource, { accountId: b.accountId, balances: b.balances.map(toCurrencyBalance), asOf: b.updatedAt }),
  // GET /v1/transfers/{id}
  TRANSFER: (state) => encoded(transferResourceSchema, toTransferResource(state)),
  // GET /v1/fx/trades/{tradeId}
  FX_TRADE: (state) => encoded(fxTradeResource, toFxTradeResource(state)),
  // GET /v1/agents/{id}
  AGENT: (state) => encoded(agentResource, toAgentResource(state)),
  // GET /v1/invoices/{id}
  INVOICE: (state) => encoded(invoiceResource, toInvoiceResource(state)),
  // GET /v1/webhooks/endpoints/{endpointId}
  WEBHOOK_ENDPOINT: (state) => encoded(webhookEndpointResource, toWebhookEndpointResource(state)),
}

export function resourceJson<T extends AuditResourceType>(type: T, row: FoldedRow[T]): string {
  return RESOURCE_JSON[type](row)
}

/** The response schemas, for the OpenAPI document: the one answered is the resource type's. */
export const AS_OF_RESOURCE_SCHEMAS = [
  customerResource,
  accountResourceSchema,
  accountBalanceResource,
  transferResourceSchema,
  fxTradeResource,
  agentResource,
  invoiceResource,
  webhookEndpointResource,
] as const
