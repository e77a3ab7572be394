// `expand` on transfers: the related objects put into each transfer, looked up in one query per
// kind for a whole page (never one per transfer), within the caller's scope: with X-On-Behalf-Of,
// an account or customer that is not that customer's (the other side of a transfer it receives)
// expands to null. No document can be attached to a transfer yet, so documents is always [].
import { z } from 'zod'
import { accountResourceSchema } from '../../domain/account/resource.js'
import { counterpartyResource } from '../../domain/counterparty/resource.js'
import { customerResource } from '../../domain/customer/resource.js'
import { type TransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { type ExpandDeps, customersByIds } from '../accounts/expand.js'
import { accountsByIds } from '../accounts/queries.js'
import { counterpartiesByIds } from '../counterparties/queries.js'
import type { TransferExpansion } from './limits.js'
import type { TransferScope } from './queries.js'

/** A transfer with the objects `expand` asked for: each present when asked, null when the transfer has none (or it is out of scope). */
export const expandedTransferResource = transferResourceSchema
  .extend({
    sourceAccount: accountResourceSchema.nullable().optional().describe('expand=sourceAccount: the account the money leaves'),
    destinationAccount: accountResourceSchema.nullable().optional().describe('expand=destinationAccount: the account the money reaches'),
    sourceCustomer: customerResource.nullable().optional().describe('expand=sourceCustomer: the source customer'),
    counterparty: counterpartyResource.nullable().optional().describe('expand=counterparty: the counterparty paid'),
    documents: z
      .array(z.unknown())
      .max(0)
      .optional()
      .describe('expand=documents: the documents attached to the transfer; none can be attached yet, so always []'),
  })
  .describe('A transfer, with the related objects asked for by expand')
export type ExpandedTransfer = z.infer<typeof expandedTransferResource>

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))]
const lookup = <T>(map: Map<string, T>, id: string | null) => (id === null ? null : (map.get(id) ?? null))

/** A transfer as its state shows it, before expand. */
type Unexpanded = Omit<TransferResource, TransferExpansion>

export async function expandTransfers(
  deps: ExpandDeps,
  scope: TransferScope,
  transfers: Unexpanded[],
  expand: readonly TransferExpansion[],
): Promise<ExpandedTransfer[]> {
  if (expand.length === 0 || transfers.length === 0) return transfers
  const wants = new Set(expand)
  const accountScope = { organizationId: scope.organizationId, customerId: scope.onBehalfOf }
  const accountIds = distinct([
    ...(wants.has('sourceAccount') ? transfers.map((t) => t.source.accountId) : []),
    ...(wants.has('destinationAccount') ? transfers.map((t) => t.destination.accountId) : []),
  ])
  const [accounts, customers, counterparties] = await Promise.all([
    accountIds.length > 0 ? accountsByIds(deps.db, accountScope, accountIds) : undefined,
    wants.has('sourceCustomer') ? customersByIds(deps, accountScope, distinct(transfers.map((t) => t.sourceCustomerId))) : undefined,
    wants.has('counterparty')
      ? counterpartiesByIds(deps.db, deps.protection, scope, distinct(transfers.map((t) => t.counterpartyId)))
      : undefined,
  ])
  const noAccounts = new Map<string, never>()
  return transfers.map((transfer) => ({
    ...transfer,
    ...(wants.has('sourceAccount') ? { sourceAccount: lookup(accounts ?? noAccounts, transfer.source.accountId) } : {}),
    ...(wants.has('destinationAccount') ? { destinationAccount: lookup(accounts ?? noAccounts, transfer.destination.accountId) } : {}),
    ...(customers ? { sourceCustomer: lookup(customers, transfer.sourceCustomerId) } : {}),
    ...(counterparties ? { counterparty: lookup(counterparties, transfer.counterpartyId) } : {}),
    ...(wants.has('documents') ? { documents: [] } : {}),
  }))
}
