// The customers projector, given events then rows: the row holds the aggregate's state as the
// decider evolves it, list columns copied out, and the resource made of it; sessions follow their
// events; a delete removes both.
import t from 'tap'
import type { CustomerCommand } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { CustomerEvent } from '../../domain/customer/events.js'
import { toCustomerResource } from '../../domain/customer/resource.js'
import { customersProjector } from '../../projections/customers.js'
import { individualCreated } from '../domain/customerEvents.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'

const now = '2026-03-01T10:00:00.000Z'
const later = '2026-03-02T10:00:00.000Z'
const scoped = { organizationId: 'org_a', customerId: 'cus_1', now }
const customers = projectorSpec(await projectionDatabase(t), customersProjector)

const created = individualCreated(now)
/** The events a command adds to a stream holding `events` (the decider's own, so the fixtures stay real). */
const then = (events: CustomerEvent[], command: CustomerCommand): CustomerEvent[] => [
  ...events,
  ...customerDecider.decide(command, events.reduce(customerDecider.evolve, customerDecider.initialState())),
]
const openSession = (events: CustomerEvent[], sessionId: string, at = now) =>
  then(events, {
    type: 'CreateVerificationSession',
    ...scoped,
    now: at,
    associatedEntityId: null,
    email: undefined,
    sendInvite: false,
    session: { sessionId, verificationUrl: `https://verify.example/${sessionId}`, expiresAt: '2026-03-08T10:00:00.000Z' },
  })

t.test('created: one DRAFT row with the state and its list columns', async (t) => {
  await customers.given([created]).thenRows(t, {
    customers: [
      {
        id: 'cus_1',
        organization_id: 'org_a',
        type: 'INDIVIDUAL',
        status: 'DRAFT',
        customer_name: 'Ada Lovelace',
        email: 'ada@example.com',
        country_code: 'US',
        created_at: now,
        updated_at: now,
        state: {
          exists: true,
          id: 'cus_1',
          customerName: 'Ada Lovelace',
          individual: { firstName: 'Ada', lastName: 'Lovelace' },
          sessions: [],
        },
      },
    ],
    verification_sessions: [],
  })
})

t.test('archived: the status and updated_at move, the state with them', async (t) => {
  const archived = then([created], { type: 'ArchiveCustomer', ...scoped, now: later })
  await customers.given(archived).thenRows(t, {
    customers: [{ id: 'cus_1', status: 'ARCHIVED', updated_at: later, created_at: now, state: { status: 'ARCHIVED', updatedAt: later } }],
  })
})

t.test('sessions: a row per session, its status following the events (a second one supersedes the first)', async (t) => {
  const two = openSession(openSession([created], 'vsess_1'), 'vsess_2', later)
  await customers.given(two).thenRows(t, {
    verification_sessions: [
      {
        id: 'vsess_1',
        customer_id: 'cus_1',
        organization_id: 'org_a',
        status: 'EXPIRED',
        created_at: now,
        expires_at: '2026-03-08T10:00:00.000Z',
      },
      { id: 'vsess_2', customer_id: 'cus_1', status: 'ACTIVE', created_at: later, associated_entity_id: null },
    ],
    customers: [
      {
        id: 'cus_1',
        state: {
          sessions: [
            { id: 'vsess_1', status: 'EXPIRED' },
            { id: 'vsess_2', status: 'ACTIVE' },
          ],
        },
      },
    ],
  })
})

t.test('deleted: the customer and its sessions are gone', async (t) => {
  const deleted = then(openSession([created], 'vsess_1'), { type: 'DeleteCustomer', ...scoped, now: later, actor: 'key_1' })
  await customers.given(deleted).thenRows(t, { customers: [], verification_sessions: [] })
})

t.test('an update to a customer the read model never saw fails the batch', async (t) => {
  const archived = then([created], { type: 'ArchiveCustomer', ...scoped, now: later })
  await customers.given(archived.slice(1)).thenThrows(t, /no result/)
})

t.test('personal data: stored sealed (the spec checks every sensitive leaf), read back opened', async (t) => {
  const withPhone: CustomerEvent = { ...created, data: { ...created.data, phone: '+14155550123' } } as CustomerEvent
  await customers.given([withPhone]).thenRows(t, {
    customers: [{ id: 'cus_1', state: { phone: '+14155550123' }, resource: { id: 'cus_1', phone: '+14155550123' } }],
  })
})

t.test('the resource reads show is kept beside the state, and follows it', async (t) => {
  const archived = then([created], { type: 'ArchiveCustomer', ...scoped, now: later })
  const state = archived.reduce(customerDecider.evolve, customerDecider.initialState())
  if (!state.exists) throw new Error('no customer')
  await customers.given(archived).thenRows(t, { customers: [{ id: 'cus_1', resource: toCustomerResource(state) }] })
})

t.test('a shredded customer: its events read as erased project the marker, with no key to write with', async (t) => {
  t.ok(await customers.protection.keys.shred('cus_9', 'test'))
  const erased = individualCreated(now, { customerId: 'cus_9' })
  const events = then([{ ...erased, data: { ...erased.data, phone: ERASED } } as CustomerEvent], {
    type: 'ArchiveCustomer',
    ...scoped,
    customerId: 'cus_9',
    now: later,
  })
  await customers.given(events).thenRows(t, {
    customers: [
      { id: 'cus_9', status: 'ARCHIVED', state: { phone: ERASED, individual: { firstName: 'Ada' } }, resource: { phone: ERASED } },
    ],
  })
})
