// Projects transfers: a row per transfer holding the aggregate's state (the remitter's identity
// sealed: sealedColumns.ts) and the list's filter columns copied out of it, so the read side never
// drifts from the write side and the resource is made from the state at read time. Evolve then
// write: a batch reads the rows its events touch in one statement (opened), applies every event
// with the decider's own evolve in order, and writes each row once (sealed): new ones in one INSERT.
import type { Insertable, Kysely, Updateable } from 'kysely'
import { transferDecider } from '../domain/transfer/decider.js'
import { type TransferEvent, transferEventSchemas } from '../domain/transfer/events.js'
import { type TransferResource, toTransferResource } from '../domain/transfer/resource.js'
import type { OpenTransferState, TransferState } from '../domain/transfer/state.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { ProjectionContext, Projector } from './runtime/projector.js'
import type { ReadDatabase, TransfersTable } from './schema.js'
import { sealedTransferResource, sealedTransferState } from './sealedColumns.js'

// ---- Evolve (pure) ----------------------------------------------------------------------------
/**
 * A transfer's row: the filter columns from its resource `r` (toTransferResource of the state),
 * `stored`, the state as the row keeps it (sealed), and `storedResource`, the resource as the row
 * keeps it (sealed). The projector's, and the bench's seeding.
 */
export function transferRow(
  state: OpenTransferState,
  stored: OpenTransferState,
  r: TransferResource = toTransferResource(state),
  storedResource: TransferResource = r,
): Insertable<TransfersTable> {
  return {
    id: r.id,
    organization_id: r.organizationId,
    customer_id: r.sourceCustomerId,
    destination_customer_id: state.created.destination.customerId,
    counterparty_id: r.counterpartyId,
    agent_id: r.agentId,
    agent_approval_status: r.agentApprovalStatus,
    client_reference_id: r.clientReferenceId,
    flow: r.flow,
    status: r.status,
    source_account_id: r.source.accountId,
    destination_account_id: r.destination.accountId,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    state: toJson(stored),
    resource: toJson(storedResource),
  }
}

function evolved(state: TransferState | undefined, event: TransferEvent): OpenTransferState {
  const id = event.data.transferId
  if (state === undefined && event.type !== 'TransferCreated') throw new Error(`${event.type} for transfer ${id}, which has no row`)
  const next = transferDecider.evolve(state ?? transferDecider.initialState(), event)
  if (next.status === 'none') throw new Error(`transfer ${id} has no state after ${event.type}`)
  return next
}

// ---- Write ------------------------------------------------------------------------------------
/** The states of the transfers `ids` as their rows hold them, opened (one statement, one key lookup). */
async function loadStates(db: Kysely<ReadDatabase>, ctx: ProjectionContext, ids: string[]): Promise<Map<string, OpenTransferState>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('transfers').select(['id', 'customer_id', 'state']).where('id', 'in', ids).execute()
  const states = await sealedTransferState.openMany(
    ctx.protection,
    rows.map((row) => ({ id: row.id, value: row.state, subject: row.customer_id })),
  )
  return new Map(rows.map((row, i) => [row.id, states[i]!]))
}

const sealed = (ctx: ProjectionContext, state: OpenTransferState) =>
  sealedTransferState.seal(ctx.protection, state.created.transferId, state, state.created.customerId)
const sealedResource = (ctx: ProjectionContext, state: OpenTransferState, resource: TransferResource) =>
  sealedTransferResource.seal(ctx.protection, state.created.transferId, resource, state.created.customerId)

/** The row of a state: its resource made once, for the filter columns and (sealed) the stored resource. */
async function rowOf(ctx: ProjectionContext, state: OpenTransferState): Promise<Insertable<TransfersTable>> {
  const resource = toTransferResource(state)
  const [stored, storedResource] = await Promise.all([sealed(ctx, state), sealedResource(ctx, state, resource)])
  return transferRow(state, stored, resource, storedResource)
}

async function applyBatch(db: Kysely<ReadDatabase>, events: TransferEvent[], ctx: ProjectionContext): Promise<void> {
  const created = new Set(events.filter((e) => e.type === 'TransferCreated').map((e) => e.data.transferId))
  const existing = [...new Set(events.map((e) => e.data.transferId))].filter((id) => !created.has(id))
  const states = await loadStates(db, ctx, existing)
  for (const event of events) states.set(event.data.transferId, evolved(states.get(event.data.transferId), event))
  const rows = await Promise.all([...states.values()].map((state) => rowOf(ctx, state)))
  const inserts = rows.filter((row) => created.has(row.id))
  if (inserts.length > 0) await db.insertInto('transfers').values(inserts).execute()
  for (const row of rows.filter((r) => !created.has(r.id))) {
    // What never changes stays as inserted; everything else is written from the new state.
    const { id, organization_id: _org, customer_id: _customer, created_at: _created, ...changed } = row
    await db
      .updateTable('transfers')
      .set(changed satisfies Updateable<TransfersTable>)
      .where('id', '=', id)
      .execute()
  }
}

export const transfersProjector: Projector = {
  name: 'transfers',
  tables: ['transfers'],
  handles: new Set(Object.keys(transferEventSchemas)),
  apply: (db, recorded, ctx) => applyBatch(db, [parsedEvent<TransferEvent>(recorded)], ctx),
  applyMany: (db, events, ctx) =>
    applyBatch(
      db,
      events.map((recorded) => parsedEvent<TransferEvent>(recorded)),
      ctx,
    ),
}
