// Projects customers and their verification sessions. Each event is applied to the stored
// aggregate state with the decider's own evolve, so the read side can never drift from the
// write side; columns used by lists and the expiry timer are copied out of the state.
import type { Kysely } from 'kysely'
import { customerEventSchemas, type CustomerEvent } from '../domain/customer/events.js'
import { type Customer, evolveCustomer, initialCustomerState } from '../domain/customer/state.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase } from './schema.js'

function columns(c: Customer) {
  return {
    status: c.status,
    customer_name: c.customerName,
    email: c.email,
    country_code: c.countryCode,
    updated_at: c.updatedAt,
    state: JSON.stringify(c),
  }
}

async function syncSessions(db: Kysely<ReadDatabase>, c: Customer, sessionId: string): Promise<void> {
  const s = c.sessions.find((x) => x.id === sessionId)
  if (!s) return
  await db.insertInto('verification_sessions').values({
    id: s.id, organization_id: c.organizationId, customer_id: c.id, associated_entity_id: s.associatedEntityId,
    status: s.status, expires_at: s.expiresAt, created_at: s.createdAt,
  }).onConflict((oc) => oc.column('id').doUpdateSet({ status: s.status })).execute()
}

export const customersProjector: Projector = {
  name: 'customers',
  tables: ['customers', 'verification_sessions'],
  handles: new Set(Object.keys(customerEventSchemas)),
  async apply(db, recorded) {
    const event = { type: recorded.type, data: recorded.data } as CustomerEvent
    const customerId = event.data.customerId
    if (event.type === 'CustomerDeleted') {
      await db.deleteFrom('verification_sessions').where('customer_id', '=', customerId).execute()
      await db.deleteFrom('customers').where('id', '=', customerId).execute()
      return
    }
    if (event.type === 'CustomerCreated') {
      const c = evolveCustomer(initialCustomerState(), event) as Customer
      await db.insertInto('customers').values({ id: c.id, organization_id: c.organizationId, type: c.type, created_at: c.createdAt, ...columns(c) }).execute()
      return
    }
    const row = await db.selectFrom('customers').select('state').where('id', '=', customerId).executeTakeFirstOrThrow()
    const next = evolveCustomer(row.state as Customer, event)
    if (!next.exists) throw new Error(`customer ${customerId} vanished while projecting ${event.type}`)
    await db.updateTable('customers').set(columns(next)).where('id', '=', customerId).execute()
    if ('sessionId' in event.data) await syncSessions(db, next, event.data.sessionId)
  },
}
