// Projects fixed routes: a row per route, from its source account's AccountOpened (the decider's own
// evolve and the route's resource, so the row shows what the create command answers), its deposit
// coordinates sealed with the customer's key; the later account events patch status, enabled,
// metadata and updatedAt (never a sealed leaf, so nothing is opened to patch). Accounts of other
// kinds get no row, and their later events find none and change nothing.
import type { Insertable, Kysely } from 'kysely'
import { accountDecider } from '../domain/account/decider.js'
import type { AccountEvent } from '../domain/account/events.js'
import { type FixedRouteAccount, type FixedRouteStatus, asFixedRoute, toFixedRouteResource } from '../domain/fixed-route/resource.js'
import { toJson } from './columnTypes.js'
import type { FixedRoutesTable, StoredFixedRoute } from './fixedRouteSchema.js'
import { parsedEvent } from './parsedEvent.js'
import type { ProjectionContext, Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'
import { sealedFixedRouteResource } from './sealedColumns.js'

type Opened = Extract<AccountEvent, { type: 'AccountOpened' }>
type Changed = Extract<
  AccountEvent,
  { type: 'AccountActivated' | 'AccountClosed' | 'AccountMetadataUpdated' | 'FixedRouteDisabled' | 'FixedRouteEnabled' }
>

const CHANGES: ReadonlySet<string> = new Set<Changed['type']>([
  'AccountActivated',
  'AccountClosed',
  'AccountMetadataUpdated',
  'FixedRouteDisabled',
  'FixedRouteEnabled',
])
const isChange = (event: AccountEvent): event is Changed => CHANGES.has(event.type)

// ---- Evolve (pure) ----------------------------------------------------------------------------
/** The route as its row keeps it: the resource without the expanded target (reads join it). */
export function storedFixedRoute(route: FixedRouteAccount): StoredFixedRoute {
  const { sweepTargetAccount: _target, ...stored } = toFixedRouteResource(route, undefined)
  return stored
}

/** A route's row: its filter columns from the resource, and the resource as stored (`stored`: sealed). */
export function fixedRouteRow(
  organizationId: string,
  route: StoredFixedRoute,
  stored: StoredFixedRoute = route,
): Insertable<FixedRoutesTable> {
  return {
    id: route.id,
    organization_id: organizationId,
    customer_id: route.customerId,
    sweep_target_account_id: route.sweepTargetAccountId,
    status: route.status,
    enabled: route.enabled,
    created_at: route.createdAt,
    updated_at: route.updatedAt,
    resource: toJson(stored),
  }
}

/** The route of an opened account, or undefined when the account is not a fixed route's source. */
export function openedRoute(event: Opened): StoredFixedRoute | undefined {
  const state = accountDecider.evolve(accountDecider.initialState(), event)
  if (state.status === 'none') throw new Error(`account ${event.data.accountId} has no state after AccountOpened`)
  const route = asFixedRoute(state)
  return route ? storedFixedRoute(route) : undefined
}

/** A closed route stays CLOSED (its account never reopens); otherwise the toggle decides. */
function statusAfter(current: FixedRouteStatus, event: Changed): FixedRouteStatus {
  if (current === 'CLOSED' || event.type === 'AccountClosed') return 'CLOSED'
  if (event.type === 'FixedRouteDisabled') return 'DISABLED'
  if (event.type === 'FixedRouteEnabled') return 'ACTIVE'
  return current
}

/** The stored route after a later event of its account: what toFixedRouteResource gives from the evolved state. */
export function patchedFixedRoute(route: StoredFixedRoute, event: Changed): StoredFixedRoute {
  const status = statusAfter(route.status, event)
  const patched = { ...route, status, enabled: status === 'ACTIVE', updatedAt: event.data.at }
  if (event.type !== 'AccountMetadataUpdated') return patched
  const metadata = event.data.metadata
  return { ...patched, metadata, sourceAccount: { ...route.sourceAccount, metadata } }
}

// ---- Write ------------------------------------------------------------------------------------
async function applyOpened(db: Kysely<ReadDatabase>, event: Opened, ctx: ProjectionContext): Promise<void> {
  const route = openedRoute(event)
  if (!route) return
  const stored = await sealedFixedRouteResource.seal(ctx.protection, route.id, route, route.customerId)
  await db
    .insertInto('fixed_routes')
    .values(fixedRouteRow(event.data.organizationId, route, stored))
    .execute()
}

async function applyChange(db: Kysely<ReadDatabase>, event: Changed): Promise<void> {
  const row = await db.selectFrom('fixed_routes').select('resource').where('id', '=', event.data.accountId).executeTakeFirst()
  if (!row) return // not a fixed route's account
  // The patch touches no sealed leaf: the stored (sealed) resource is patched as it is.
  const resource = patchedFixedRoute(row.resource, event)
  await db
    .updateTable('fixed_routes')
    .set({ status: resource.status, enabled: resource.enabled, updated_at: resource.updatedAt, resource: toJson(resource) })
    .where('id', '=', event.data.accountId)
    .execute()
}

export const fixedRoutesProjector: Projector = {
  name: 'fixed_routes',
  tables: ['fixed_routes'],
  handles: new Set(['AccountOpened', ...CHANGES]),
  async apply(db, recorded, ctx) {
    const event = parsedEvent<AccountEvent>(recorded)
    if (event.type === 'AccountOpened') await applyOpened(db, event, ctx)
    else if (isChange(event)) await applyChange(db, event)
  },
}
