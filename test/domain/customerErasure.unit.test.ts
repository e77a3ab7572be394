// Erasure of a customer's personal data, given/when/then: the audit event, idempotence, the
// refusal of personal-data writes afterwards, a draft's deletion erasing it in the same append,
// an erasure after a deletion, and the state's sensitive fields reading ERASED.
import t from 'tap'
import type { CustomerCommand, CustomerCommandOf } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { CustomerEvent } from '../../domain/customer/events.js'
import type { SaveIndividualVerificationBody } from '../../domain/customer/schemas/individualVerification.js'
import { ERASED } from '../../domain/shared/sensitive/index.js'
import { individualCreated } from './customerEvents.js'
import { spec } from './deciderSpec.js'

const now = '2026-03-01T10:00:00.000Z'
const later = '2026-03-02T10:00:00.000Z'
const org = 'org_a'
const id = 'cus_1'
const customer = spec(customerDecider)
const scoped = { organizationId: org, customerId: id, now }

const created = individualCreated(now, { organizationId: org, customerId: id })
const erase = (overrides: Partial<CustomerCommandOf<'EraseCustomerData'>> = {}): CustomerCommand => ({
  type: 'EraseCustomerData',
  ...scoped,
  now: later,
  trigger: 'OPERATOR',
  erasedBy: 'alice',
  reason: 'customer asked (GDPR art. 17)',
  ...overrides,
})
const erasedEvent: CustomerEvent = {
  type: 'CustomerDataErased',
  data: { customerId: id, erasedAt: later, erasedBy: 'alice', reason: 'customer asked (GDPR art. 17)', trigger: 'OPERATOR' },
}
const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: id, deletedAt: now } }
const after = (events: CustomerEvent[], command: CustomerCommand) => [
  ...events,
  ...customerDecider.decide(command, customer.given(events).state),
]

const personal: SaveIndividualVerificationBody = {
  phone: '+14155550123',
  dateOfBirth: '1990-12-10',
  nationality: 'US',
  taxIdentificationNumber: '123-45-6789',
  address: { addressLine1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
}
const saved = after([created], {
  type: 'SaveIndividualVerification',
  ...scoped,
  body: personal,
  submit: false,
  documents: {},
  agreements: {},
  acceptanceIds: [],
})

t.test('an operator erases a customer: one audit event naming who, why and when; again is a no-op', async (t) => {
  customer.given(saved).when(erase()).then(t, [erasedEvent])
  customer
    .given([...saved, erasedEvent])
    .when(erase())
    .then(t, [], 'erasing twice decides nothing')
  customer
    .given([...saved, erasedEvent])
    .when(erase({ trigger: 'RETENTION', erasedBy: 'system:scheduler' }))
    .then(t, [], 'nor does a retention timer firing after it')
  customer
    .given(saved)
    .when(erase({ trigger: 'RETENTION', erasedBy: 'system:scheduler', reason: 'retention ended' }))
    .thenMatches(t, [{ type: 'CustomerDataErased', data: { trigger: 'RETENTION', erasedBy: 'system:scheduler' } }])
})

t.test('unknown customers and other organizations are not found', async (t) => {
  customer.given([]).when(erase()).thenThrows(t, 'resource_not_found')
  customer
    .given(saved)
    .when(erase({ organizationId: 'org_b' }))
    .thenThrows(t, 'resource_not_found')
  customer
    .given([created, deleted])
    .when(erase({ organizationId: 'org_b' }))
    .thenThrows(t, 'resource_not_found')
})

t.test("after erasure the state's sensitive fields read ERASED; the rest stays", async (t) => {
  const state = customer.given([...saved, erasedEvent]).state
  if (!state.exists) throw new Error('expected an existing customer')
  t.equal(state.erasedAt, later)
  t.equal(state.phone, ERASED)
  t.equal(state.individual.phone, ERASED)
  t.equal(state.individual.dateOfBirth, ERASED)
  t.equal(state.individual.taxIdentificationNumber, ERASED)
  t.equal(state.individual.address?.addressLine1, ERASED)
  t.equal(state.individual.address?.city, 'Springfield', 'not sensitive: kept')
  t.equal(state.individual.firstName, 'Ada')
  t.equal(state.individual.nationality, 'US')
  t.equal(state.status, 'DRAFT')
})

t.test('after erasure, commands that write personal data are refused with customer_erased', async (t) => {
  const erased = [...saved, erasedEvent]
  customer
    .given(erased)
    .when({
      type: 'SaveIndividualVerification',
      ...scoped,
      body: { phone: '+14155550199' },
      submit: false,
      documents: {},
      agreements: {},
      acceptanceIds: [],
    })
    .thenThrows(t, 'customer_erased')
  customer
    .given(erased)
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenThrows(t, 'customer_erased')
  customer
    .given(erased)
    .when({
      type: 'CreateVerificationSession',
      ...scoped,
      session: { sessionId: 'vsess_1', verificationUrl: 'https://v.example/s/vsess_1', expiresAt: later },
      associatedEntityId: null,
      email: undefined,
      sendInvite: false,
    })
    .thenThrows(t, 'customer_erased')
  customer
    .given(erased)
    .when({ type: 'ArchiveCustomer', ...scoped })
    .thenMatches(t, [{ type: 'CustomerArchived' }], 'archiving writes nothing personal: allowed')
})

t.test('deleting a draft erases it in the same append; an erasure after a deletion is recorded once', async (t) => {
  customer
    .given(saved)
    .when({ type: 'DeleteCustomer', ...scoped, actor: 'key_1' })
    .then(t, [
      deleted,
      {
        type: 'CustomerDataErased',
        data: {
          customerId: id,
          erasedAt: now,
          erasedBy: 'key_1',
          reason: 'deleted before submission',
          trigger: 'DELETED_BEFORE_SUBMISSION',
        },
      },
    ])
  const deletedAndErased = after(saved, { type: 'DeleteCustomer', ...scoped, actor: 'key_1' })
  customer.given(deletedAndErased).when(erase()).then(t, [], 'already erased by the deletion')
  t.same(customer.given(deletedAndErased).state, { exists: false, deleted: true, organizationId: org, erasedAt: now })
  // Deleted before erasure existed: an operator may still erase it.
  customer
    .given([...saved, deleted])
    .when(erase())
    .then(t, [erasedEvent])
  customer
    .given([...saved, erasedEvent])
    .when({ type: 'DeleteCustomer', ...scoped, actor: 'key_1' })
    .then(t, [deleted], 'erased first: deleted only')
  customer
    .given([...saved, deleted, erasedEvent])
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenThrows(t, 'resource_not_found')
})
