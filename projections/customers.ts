// Projects customers and their verification sessions. Each event is applied to the stored
// aggregate state with the decider's own evolve, so the read side can never drift from the
// write side; columns used by lists and the expiry timer are copied out of the state, and the
// resource reads show is kept beside it (lists join it as it is). The stored state and resource keep
// their personal data sealed (sealedColumns.ts): opened, evolved, sealed again.
import type { Insertable, Kysely, Updateable } from 'kysely'
import { type CustomerEvent, customerEventSchemas } from '../domain/customer/events.js'
import { type CustomerResource, toCustomerResource } from '../domain/customer/resource.js'
import { type Customer, type CustomerState, evolveCustomer, initialCustomerState } from '../domain/customer/state.js'
import { toJson } from './columnTypes.js'
import { parsedEvent } from './parsedEvent.js'
import type { CustomersTable, ReadDatabase, VerificationSessionsTable } from './schema.js'
import type { ProjectionContext, Projector } from './runtime/projector.js'
import { sealedCustomerResource, sealedCustomerState } from './sealedColumns.js'

// ---- Evolve: event and stored state to rows (pure) -------------------------------------------
function existing(state: CustomerState, event: CustomerEvent): Customer {
  if (!state.exists) throw new Error(`customer ${event.data.customerId} has no state after ${event.type}`)
  return state
}

/** What the row keeps sealed: the state and the resource (toCustomerResource of it) with their sensitive leaves sealed. */
type SealedCustomer = { state: Customer; resource: CustomerResource }

/** The row's columns. */
function customerColumns(c: Customer, sealed: SealedCustomer) {
  return {
    status: c.status,
    customer_name: c.customerName,
    email: c.email,
    country_code: c.countryCode,
    updated_at: c.updatedAt,
    state: toJson(sealed.state),
    resource: toJson(sealed.resource),
  } satisfies Updateable<CustomersTable>
}

const customerRow = (c: Customer, sealed: SealedCustomer): Insertable<CustomersTable> => ({
  id: c.id,
  organization_id: c.organizationId,
  type: c.type,
  created_at: c.createdAt,
  ...customerColumns(c, sealed),
})

function sessionRow(c: Customer, sessionId: string): Insertable<VerificationSessionsTable> | undefined {
  const s = c.sessions.find((x) => x.id === sessionId)
  if (!s) return undefined
  return {
    id: s.id,
    organization_id: c.organizationId,
    customer_id: c.id,
    associated_entity_id: s.associatedEntityId,
    status: s.status,
    expires_at: s.expiresAt,
    created_at: s.createdAt,
  }
}

// ---- Write ------------------------------------------------------------------------------------
async function seal(ctx: ProjectionContext, c: Customer): Promise<SealedCustomer> {
  const [state, resource] = await Promise.all([
    sealedCustomerState.seal(ctx.protection, c.id, c),
    sealedCustomerResource.seal(ctx.protection, c.id, toCustomerResource(c)),
  ])
  return { state, resource }
}

async function upsertSession(db: Kysely<ReadDatabase>, row: Insertable<VerificationSessionsTable>): Promise<void> {
  await db
    .insertInto('verification_sessions')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ status: row.status }))
    .execute()
}

export const customersProjector: Projector = {
  name: 'customers',
  tables: ['customers', 'verification_sessions'],
  handles: new Set(Object.keys(customerEventSchemas)),
  async apply(db, recorded, ctx) {
    const event = parsedEvent<CustomerEvent>(recorded)
    const customerId = event.data.customerId
    if (event.type === 'CustomerDeleted') {
      await db.deleteFrom('verification_sessions').where('customer_id', '=', customerId).execute()
      await db.deleteFrom('customers').where('id', '=', customerId).execute()
      return
    }
    if (event.type === 'CustomerCreated') {
      const created = existing(evolveCustomer(initialCustomerState(), event), event)
      await db
        .insertInto('customers')
        .values(customerRow(created, await seal(ctx, created)))
        .execute()
      return
    }
    // A deleted customer's erasure (appended with its deletion, or later) has no row left to change.
    if (
      event.type === 'CustomerDataErased' &&
      !(await db.selectFrom('customers').select('id').where('id', '=', customerId).executeTakeFirst())
    )
      return
    const row = await db.selectFrom('customers').select('state').where('id', '=', customerId).executeTakeFirstOrThrow()
    const before = await sealedCustomerState.open(ctx.protection, customerId, row.state)
    const next = existing(evolveCustomer(before, event), event)
    await db
      .updateTable('customers')
      .set(customerColumns(next, await seal(ctx, next)))
      .where('id', '=', customerId)
      .execute()
    const session = 'sessionId' in event.data ? sessionRow(next, event.data.sessionId) : undefined
    if (session) await upsertSession(db, session)
  },
}
