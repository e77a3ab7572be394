// `expand` on accounts: the related objects put into each account, looked up in one query per kind
// for a whole page (never one per account), within the same scope as the accounts themselves.
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { type AccountResource, accountResourceSchema } from '../../domain/account/resource.js'
import { counterpartyResource } from '../../domain/counterparty/resource.js'
import { type CustomerResource, customerResource, toCustomerResource } from '../../domain/customer/resource.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type DataProtection, listedCustomerState } from '../../projections/sealedColumns.js'
import type { AccountExpansion } from './limits.js'
import { counterpartiesByIds } from '../counterparties/queries.js'
import { type AccountScope, accountsByIds } from './queries.js'

/** An account with the objects `expand` asked for: each present when asked, null when the account has none (or it is out of scope). */
export const expandedAccountResource = accountResourceSchema
  .extend({
    customer: customerResource
      .nullable()
      .optional()
      .describe('expand=customer: the owning customer; null for the organization’s own accounts'),
    sweepTargetAccount: accountResourceSchema
      .nullable()
      .optional()
      .describe('expand=sweepTargetAccount: the account deposits sweep to; null when the account sweeps nowhere'),
    counterparty: counterpartyResource
      .nullable()
      .optional()
      .describe('expand=counterparty: the counterparty of an external account; null when it has none'),
  })
  .describe('An account, with the related objects asked for by expand')
export type ExpandedAccount = z.infer<typeof expandedAccountResource>

export type ExpandDeps = { db: Kysely<ReadDatabase>; protection: DataProtection }

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))]

export async function customersByIds(deps: ExpandDeps, scope: AccountScope, ids: string[]): Promise<Map<string, CustomerResource>> {
  if (ids.length === 0) return new Map()
  let query = deps.db.selectFrom('customers').select(['id', 'state']).where('organization_id', '=', scope.organizationId)
  if (scope.customerId !== undefined) query = query.where('id', '=', scope.customerId)
  const rows = await query.where('id', 'in', ids).execute()
  const states = await listedCustomerState.openMany(
    deps.protection,
    rows.map((row) => ({ id: row.id, value: row.state })),
  )
  return new Map(states.map((state) => [state.id, toCustomerResource(state)]))
}

export async function expandAccounts(
  deps: ExpandDeps,
  scope: AccountScope,
  accounts: AccountResource[],
  expand: readonly AccountExpansion[],
): Promise<ExpandedAccount[]> {
  if (expand.length === 0 || accounts.length === 0) return accounts
  const wants = new Set(expand)
  const ids = (field: 'customerId' | 'sweepTargetAccountId' | 'counterpartyId') => distinct(accounts.map((a) => a[field]))
  const [customers, targets, counterparties] = await Promise.all([
    wants.has('customer') ? customersByIds(deps, scope, ids('customerId')) : undefined,
    wants.has('sweepTargetAccount') ? accountsByIds(deps.db, scope, ids('sweepTargetAccountId')) : undefined,
    wants.has('counterparty')
      ? counterpartiesByIds(
          deps.db,
          deps.protection,
          { organizationId: scope.organizationId, onBehalfOf: scope.customerId },
          ids('counterpartyId'),
        )
      : undefined,
  ])
  const lookup = <T>(map: Map<string, T>, id: string | null) => (id === null ? null : (map.get(id) ?? null))
  return accounts.map((account) => ({
    ...account,
    ...(customers ? { customer: lookup(customers, account.customerId) } : {}),
    ...(targets ? { sweepTargetAccount: lookup(targets, account.sweepTargetAccountId) } : {}),
    ...(counterparties ? { counterparty: lookup(counterparties, account.counterpartyId) } : {}),
  }))
}
