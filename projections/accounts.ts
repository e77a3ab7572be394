// Projects accounts: a row per account, opened from AccountOpened (the decider's own evolve and
// resource, so the row shows what a command answers) and patched by the account-level events. The
// funds events are not handled here: a balance changes its own tables, never this row.
import type { Insertable, Kysely } from 'kysely'
import { type OpenAccountState, accountDecider } from '../domain/account/decider.js'
import type { AccountEvent } from '../domain/account/events.js'
import { type AccountResource, toAccountResource } from '../domain/account/resource.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { AccountsTable, ReadDatabase } from './schema.js'
import type { Projector } from './runtime/projector.js'

type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>
type Changed = Extract<AccountEvent, { type: 'AccountActivated' | 'AccountClosed' | 'AccountMetadataUpdated' }>

// ---- Evolve (pure) ----------------------------------------------------------------------------
/** An account's row: its filter columns and its resource, from its state (the projector's and the bench's seeding). */
export function accountRow(state: OpenAccountState): Insertable<AccountsTable> {
  const r = toAccountResource(state)
  return {
    id: r.id,
    organization_id: state.account.organizationId,
    customer_id: r.customerId,
    counterparty_id: r.counterpartyId,
    sweep_target_account_id: r.sweepTargetAccountId,
    type: r.type,
    status: r.status,
    provider: r.provider,
    holds_balance: r.holdsBalance,
    balance_source_eligible: r.balanceSourceEligible,
    address_type: r.addressType ?? null,
    currency_codes: r.currencyCodes,
    payment_rails: r.paymentRails,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    resource: toJson(r),
  }
}

function openedState(event: Opened): OpenAccountState {
  const state = accountDecider.evolve(accountDecider.initialState(), event)
  if (state.status === 'none') throw new Error(`account ${event.data.accountId} has no state after AccountOpened`)
  return state
}

const openedRow = (event: Opened): Insertable<AccountsTable> => accountRow(openedState(event))

export function patchedResource(resource: AccountResource, event: Changed): AccountResource {
  const at = event.data.at
  switch (event.type) {
    case 'AccountActivated':
      return { ...resource, status: 'ACTIVE', updatedAt: at }
    case 'AccountClosed':
      return { ...resource, status: 'CLOSED', updatedAt: at, closedAt: at }
    case 'AccountMetadataUpdated':
      return { ...resource, metadata: event.data.metadata, updatedAt: at }
  }
}

const isChange = (event: AccountEvent): event is Changed =>
  event.type === 'AccountActivated' || event.type === 'AccountClosed' || event.type === 'AccountMetadataUpdated'

/**
 * The resource an account's row holds after `event`, from the one before (undefined until it opens): the
 * projector's own steps, for a read of the account as it stood at an earlier revision (read-api/audit/).
 * Events the row does not show (funds, a route's deposits) leave it as it was.
 */
export function accountResourceAfter(resource: AccountResource | undefined, event: AccountEvent): AccountResource | undefined {
  if (event.type === 'AccountOpened') return toAccountResource(openedState(event))
  if (!isChange(event)) return resource
  if (!resource) throw new Error(`${event.type} for account ${event.data.accountId} before it opened`)
  return patchedResource(resource, event)
}

// ---- Write ------------------------------------------------------------------------------------
async function applyChange(db: Kysely<ReadDatabase>, event: Changed): Promise<void> {
  const row = await db.selectFrom('accounts').select('resource').where('id', '=', event.data.accountId).executeTakeFirst()
  if (!row) throw new Error(`${event.type} for account ${event.data.accountId}, which has no row`)
  const resource = patchedResource(row.resource, event)
  await db
    .updateTable('accounts')
    .set({ status: resource.status, updated_at: resource.updatedAt, resource: toJson(resource) })
    .where('id', '=', event.data.accountId)
    .execute()
}

export const accountsProjector: Projector = {
  name: 'accounts',
  tables: ['accounts'],
  handles: new Set(['AccountOpened', 'AccountActivated', 'AccountClosed', 'AccountMetadataUpdated']),
  async apply(db, recorded) {
    const event = parsedEvent<AccountEvent>(recorded)
    if (event.type === 'AccountOpened') await db.insertInto('accounts').values(openedRow(event)).execute()
    else if (isChange(event)) await applyChange(db, event)
  },
}
