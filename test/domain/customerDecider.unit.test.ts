// The Customer decider, given/when/then: the status machine, verification saves, terms,
// associated entities and the ownership tree, sessions.
import t from 'tap'
import type { CustomerCommand, CustomerCommandOf } from '../../domain/customer/commands.js'
import { customerDecider } from '../../domain/customer/decider.js'
import type { CustomerEvent } from '../../domain/customer/events.js'
import { individualCreated } from './customerEvents.js'
import { spec } from './deciderSpec.js'

const now = '2026-03-01T10:00:00.000Z'
const org = 'org_a'
const id = 'cus_1'
const customer = spec(customerDecider)
const scoped = { organizationId: org, customerId: id, now }

const createdIndividual = individualCreated(now, { organizationId: org, customerId: id })
const createdBusiness: CustomerEvent = {
  type: 'CustomerCreated',
  data: {
    customerId: id,
    organizationId: org,
    type: 'BUSINESS',
    customerName: 'Acme',
    email: 'ops@acme.example',
    phone: null,
    countryCode: 'US',
    metadata: {},
    createdAt: now,
  },
}
const docs = {
  doc_front: { organizationId: org, customerId: id, contentType: 'image/png' },
  doc_back: { organizationId: org, customerId: null, contentType: 'image/png' },
  doc_selfie: { organizationId: org, customerId: id, contentType: 'application/pdf' },
}
const save = (body: Record<string, unknown>, submit = false): CustomerCommand => ({
  type: 'SaveIndividualVerification',
  ...scoped,
  body,
  submit,
  documents: docs,
  agreements: {},
  acceptanceIds: ['tosa_1', 'tosa_2', 'tosa_3'],
})
const complete = {
  phone: '+14155550123',
  dateOfBirth: '1990-12-10',
  nationality: 'US',
  taxIdentificationNumber: '123-45-6789',
  address: { addressLine1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
  governmentId: { type: 'PASSPORT', idNumber: 'P1', issuingCountry: 'US', frontImage: 'doc_front' },
  supportingDocuments: [{ file: 'doc_selfie', type: 'SELFIE' }],
  hasAgreedToTos: true,
}
const afterSave = (body: Record<string, unknown>, submit = false) => [
  createdIndividual,
  ...customerDecider.decide(save(body, submit), customer.given([createdIndividual]).state),
]

t.test('create: a new customer is DRAFT; the same id twice is a conflict', async (t) => {
  customer
    .given([])
    .when({
      type: 'CreateIndividualCustomer',
      ...scoped,
      body: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', countryCode: 'US' },
    })
    .then(t, [createdIndividual])
  customer
    .given([createdIndividual])
    .when({ type: 'CreateBusinessCustomer', ...scoped, body: { businessName: 'Acme', countryCode: 'US' } })
    .thenThrows(t, 'resource_already_exists')
})

t.test("another organization's customer is not found", async (t) => {
  customer
    .given([createdIndividual])
    .when({ type: 'ArchiveCustomer', ...scoped, organizationId: 'org_b' })
    .thenThrows(t, 'resource_not_found')
  customer
    .given([])
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenThrows(t, 'resource_not_found')
})

t.test('save without submit: data saved, still DRAFT; submit with gaps changes nothing', async (t) => {
  customer
    .given([createdIndividual])
    .when(save({ phone: '+14155550123' }))
    .thenMatches(t, [
      {
        type: 'IndividualVerificationSaved',
        data: { changes: { phone: '+14155550123' }, updatedFields: ['phone'], summary: { status: 'DRAFT' } },
      },
    ])
  customer
    .given([createdIndividual])
    .when({ type: 'SubmitCustomer', ...scoped })
    .then(t, [], 'nothing submitted while requirements are missing')
})

t.test('save with submit and a complete package: UNDER_REVIEW, terms accepted, warnings kept', async (t) => {
  const events = customerDecider.decide(save(complete, true), customer.given([createdIndividual]).state)
  t.same(
    events.map((e) => e.type),
    ['IndividualVerificationSaved', 'TermsAccepted', 'CustomerSubmitted'],
  )
  t.match(events[0], { data: { reviewWarnings: [/selfie should be a JPEG or PNG/] } })
  t.match(events[2], { data: { previousStatus: 'DRAFT', summary: { status: 'UNDER_REVIEW' } } })
})

t.test('rules refuse with every field named', async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ firstName: 'Дмитрий' }, 'transliteratedFirstName'],
    [{ accountPurpose: 'OTHER' }, 'accountPurposeExplanation'],
    [{ nationality: 'FR', taxResidenceCountry: 'FR' }, 'taxResidenceCountry'],
    [{ nationality: 'US', taxIdentificationNumber: 'NOT_APPLICABLE' }, 'taxIdentificationNumber'],
    [{ nationality: 'GB', taxIdentificationNumber: '123' }, 'taxIdentificationNumber'],
    [{ proofOfAddress: { type: 'UTILITY_BILL', documentDate: '2025-11-01', file: 'doc_front' } }, 'proofOfAddress.documentDate'],
    [{ governmentId: { type: 'NATIONAL_ID', idNumber: 'X', issuingCountry: 'FR', frontImage: 'doc_front' } }, 'governmentId.backImage'],
    [
      { governmentId: { type: 'PASSPORT', idNumber: 'X', issuingCountry: 'FR', frontImage: 'doc_front', expirationDate: '2026-02-01' } },
      'governmentId.expirationDate',
    ],
    [{ supportingDocuments: [{ file: 'doc_unknown', type: 'OTHER' }] }, 'supportingDocuments.0.file'],
    [{ dateOfBirth: '2027-01-01' }, 'dateOfBirth'],
    [
      { address: { addressLine1: '東京都千代田区', city: 'Tokyo', postalCode: '100-0001', country: 'JP' } },
      'address.transliterated.addressLine1',
    ],
  ]
  for (const [body, field] of cases) {
    try {
      customerDecider.decide(save(body), customer.given([createdIndividual]).state)
      t.fail(`expected a refusal for ${field}`)
    } catch (error) {
      t.match(error, { code: 'verification_invalid', details: [{ field }] }, field)
    }
  }
  customer
    .given([createdIndividual])
    .when(save({ firstName: 'Дмитрий', transliteratedFirstName: 'Dmitrii' }))
    .thenMatches(t, [{ type: 'IndividualVerificationSaved' }], 'transliterated: accepted')
  customer
    .given([createdIndividual])
    .when(save({ nationality: 'US', taxIdentificationNumber: 'OVERRIDE:anything' }))
    .thenMatches(t, [{ data: { changes: { taxIdentificationNumber: 'OVERRIDE:anything' } } }], 'OVERRIDE: stored as is')
})

t.test('a proof of address is needed outside the US only', async (t) => {
  const gb = { ...complete, nationality: 'GB', taxIdentificationNumber: 'NOT_APPLICABLE', address: { ...complete.address, country: 'GB' } }
  t.same(
    customerDecider.decide(save(gb, true), customer.given([createdIndividual]).state).map((e) => e.type),
    ['IndividualVerificationSaved', 'TermsAccepted'],
    'GB resident without proof: not submitted',
  )
  const withProof = { ...gb, proofOfAddress: { type: 'BANK_STATEMENT', documentDate: '2026-02-01', file: 'doc_back' } }
  t.ok(customerDecider.decide(save(withProof, true), customer.given([createdIndividual]).state).some((e) => e.type === 'CustomerSubmitted'))
})

t.test('status machine: review outcomes, resubmission, archive, delete', async (t) => {
  const submitted = afterSave(complete, true)
  const review = (outcome: 'APPROVED' | 'REJECTED' | 'NEEDS_MORE_INFORMATION'): CustomerCommand => ({
    type: 'SimulateReview',
    ...scoped,
    outcome,
    reasons: [],
  })
  customer
    .given(submitted)
    .when(review('APPROVED'))
    .thenMatches(t, [{ type: 'CustomerReviewed', data: { outcome: 'APPROVED' } }, { type: 'CustomerVerified' }])
  customer
    .given(submitted)
    .when(review('REJECTED'))
    .thenMatches(t, [{ type: 'CustomerReviewed', data: { outcome: 'REJECTED', summary: { status: 'REJECTED' } } }])
  customer
    .given(submitted)
    .when(save({ phone: '+14155550199' }))
    .thenThrows(t, 'customer_not_editable')
  customer
    .given(submitted)
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenThrows(t, 'customer_not_submittable')
  customer
    .given(submitted)
    .when({ type: 'DeleteCustomer', ...scoped, actor: 'key_1' })
    .thenThrows(t, 'customer_not_deletable')
  const nmi = [...submitted, ...customerDecider.decide(review('NEEDS_MORE_INFORMATION'), customer.given(submitted).state)]
  customer
    .given(nmi)
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenMatches(t, [{ type: 'CustomerSubmitted', data: { previousStatus: 'NEEDS_MORE_INFORMATION' } }])
  customer.given([createdIndividual]).when(review('APPROVED')).thenThrows(t, 'customer_not_under_review')
  const archived = [...submitted, ...customerDecider.decide({ type: 'ArchiveCustomer', ...scoped }, customer.given(submitted).state)]
  customer
    .given(archived)
    .when({ type: 'ArchiveCustomer', ...scoped })
    .thenThrows(t, 'customer_archived')
  customer
    .given([createdIndividual])
    .when({ type: 'DeleteCustomer', ...scoped, actor: 'key_1' })
    .then(t, [
      { type: 'CustomerDeleted', data: { customerId: id, deletedAt: now } },
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
})

t.test('terms: each method recorded once; an agreement of another organization is refused', async (t) => {
  const accepted = afterSave({ hasAgreedToTos: true })
  customer
    .given(accepted)
    .when(save({ hasAgreedToTos: true }))
    .then(t, [], 'no second acceptance')
  customer
    .given([createdIndividual])
    .when({
      ...save({ signedAgreementId: 'tos_1' }),
      agreements: { tos_1: { organizationId: 'org_b', customerId: null } },
    } as CustomerCommand)
    .thenThrows(t, 'verification_invalid')
  customer
    .given([createdIndividual])
    .when({ ...save({ signedAgreementId: 'tos_1' }), agreements: { tos_1: { organizationId: org, customerId: null } } } as CustomerCommand)
    .thenMatches(t, [{ type: 'TermsAccepted', data: { acceptance: { method: 'SIGNED_AGREEMENT', agreementId: 'tos_1' } } }])
  customer
    .given([createdIndividual])
    .when(save({ metadata: { infiniteTosAcceptanceId: 'ext-1' } }))
    .thenMatches(t, [
      { type: 'IndividualVerificationSaved' },
      { type: 'TermsAccepted', data: { acceptance: { method: 'PLATFORM_ACCEPTANCE_ID', externalReference: 'ext-1' } } },
    ])
})

const session = { sessionId: 'vsess_1', verificationUrl: 'https://v.example/s/vsess_1', expiresAt: '2026-03-08T10:00:00.000Z' }
const add = (entityId: string, entityType: 'INDIVIDUAL' | 'BUSINESS', body: Record<string, unknown>): CustomerCommand => ({
  type: 'AddAssociatedEntity',
  ...scoped,
  entityId,
  entityType,
  body,
  documents: {},
  session,
})
const given = (events: CustomerEvent[], command: CustomerCommand) => [
  ...events,
  ...customerDecider.decide(command, customer.given(events).state),
]

t.test('associated entities: business customers only; email for a link; ownership tree stays valid', async (t) => {
  customer
    .given([createdIndividual])
    .when(add('asp_1', 'BUSINESS', { businessName: 'Hold' }))
    .thenThrows(t, 'customer_type_mismatch')
  customer
    .given([createdBusiness])
    .when(add('asp_1', 'BUSINESS', { businessName: 'Hold', generateVerificationLink: true }))
    .thenThrows(t, 'associated_entity_invalid')
  customer
    .given([createdBusiness])
    .when(add('asp_1', 'BUSINESS', { businessName: 'Hold', email: 'h@x.example', generateVerificationLink: true, sendInvite: true }))
    .thenMatches(t, [
      { type: 'AssociatedEntityAdded' },
      { type: 'VerificationSessionCreated', data: { associatedEntityId: 'asp_1' } },
      { type: 'VerificationLinkSent' },
    ])
  const hold = given([createdBusiness], add('asp_h', 'BUSINESS', { businessName: 'Hold', hasOwnership: true, ownershipPercentage: 60 }))
  customer
    .given(hold)
    .when(add('asp_x', 'BUSINESS', { businessName: 'Other', hasOwnership: true, ownershipPercentage: 50 }))
    .thenThrows(t, 'ownership_over_100')
  customer
    .given(hold)
    .when(add('asp_p', 'INDIVIDUAL', { firstName: 'P', parentEntityId: 'asp_missing' }))
    .thenThrows(t, 'ownership_parent_missing')
  const sub = given(
    hold,
    add('asp_s', 'BUSINESS', { businessName: 'Sub', parentEntityId: 'asp_h', hasOwnership: true, ownershipPercentage: 100 }),
  )
  customer
    .given(sub)
    .when({
      type: 'UpdateAssociatedEntity',
      ...scoped,
      entityId: 'asp_h',
      entityType: 'BUSINESS',
      changes: { parentEntityId: 'asp_s' },
      documents: {},
    })
    .thenThrows(t, 'ownership_cycle')
  customer
    .given(sub)
    .when(add('asp_p', 'INDIVIDUAL', { firstName: 'P', ownershipPercentage: 10 }))
    .thenThrows(t, 'associated_entity_invalid', 'a percentage needs hasOwnership')
})

t.test('business submission: a 25% owner through the tree is required, or else a control person', async (t) => {
  const data = {
    registrationNumber: 'R1',
    taxIdentificationNumber: '12-3456789',
    dateOfIncorporation: '2020-01-01',
    registeredAddress: complete.address,
    supportingDocuments: [{ file: 'doc_front', type: 'BUSINESS_FORMATION' }],
    hasAgreedToTos: true,
  }
  const biz = given([createdBusiness], {
    type: 'SaveBusinessVerification',
    ...scoped,
    body: data as CustomerCommandOf<'SaveBusinessVerification'>['body'],
    submit: false,
    documents: docs,
    agreements: {},
    acceptanceIds: ['tosa_1', 'tosa_2', 'tosa_3'],
  })
  const person = {
    firstName: 'P',
    lastName: 'Q',
    dateOfBirth: '1980-01-01',
    address: complete.address,
    taxIdentificationNumber: '123-45-6789',
    nationality: 'US',
  }
  // 50% of a holding that owns 60%: 30% effective.
  const tree = given(
    given(biz, add('asp_h', 'BUSINESS', { businessName: 'Hold', hasOwnership: true, ownershipPercentage: 60 })),
    add('asp_p', 'INDIVIDUAL', { ...person, parentEntityId: 'asp_h', hasOwnership: true, ownershipPercentage: 50 }),
  )
  customer
    .given(tree)
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenMatches(t, [{ type: 'CustomerSubmitted' }])
  // 40% of 60% is 24%: below the threshold and no control person.
  const small = given(
    given(biz, add('asp_h', 'BUSINESS', { businessName: 'Hold', hasOwnership: true, ownershipPercentage: 60 })),
    add('asp_p', 'INDIVIDUAL', { ...person, parentEntityId: 'asp_h', hasOwnership: true, ownershipPercentage: 40 }),
  )
  customer
    .given(small)
    .when({ type: 'SubmitCustomer', ...scoped })
    .then(t, [])
  const controlled = given(small, add('asp_c', 'INDIVIDUAL', { ...person, hasControl: true }))
  customer
    .given(controlled)
    .when({ type: 'SubmitCustomer', ...scoped })
    .thenMatches(t, [{ type: 'CustomerSubmitted' }])
})

t.test('sessions: superseded, submitted with the customer, expired only when due', async (t) => {
  const open = (sessionId: string): CustomerCommand => ({
    type: 'CreateVerificationSession',
    ...scoped,
    session: { ...session, sessionId },
    associatedEntityId: null,
    email: undefined,
    sendInvite: false,
  })
  const one = given([createdIndividual], open('vsess_1'))
  customer
    .given(one)
    .when(open('vsess_2'))
    .thenMatches(t, [
      { type: 'VerificationSessionExpired', data: { sessionId: 'vsess_1', reason: 'SUPERSEDED' } },
      { type: 'VerificationSessionCreated', data: { sessionId: 'vsess_2' } },
    ])
  const expire = (at: string): CustomerCommand => ({ type: 'ExpireVerificationSession', ...scoped, sessionId: 'vsess_1', now: at })
  customer.given(one).when(expire('2026-03-08T09:59:59.000Z')).then(t, [], 'not yet due')
  customer
    .given(one)
    .when(expire('2026-03-08T10:00:00.000Z'))
    .thenMatches(t, [{ type: 'VerificationSessionExpired', data: { reason: 'EXPIRED' } }])
  const submitted = [...one, ...customerDecider.decide(save(complete, true), customer.given(one).state)]
  t.ok(
    submitted.some((e) => e.type === 'VerificationSessionSubmitted'),
    'the active session is submitted with the customer',
  )
  customer.given(submitted).when(expire('2026-03-09T00:00:00.000Z')).then(t, [], 'a submitted session does not expire')
  customer
    .given(submitted)
    .when({ type: 'SimulateReview', ...scoped, outcome: 'APPROVED', reasons: [] })
    .thenMatches(t, [{ type: 'CustomerReviewed' }, { type: 'CustomerVerified' }, { type: 'VerificationSessionCompleted' }])
  customer.given([]).when(expire(now)).then(t, [], 'the timer never fails on a deleted customer')
})

t.test('archive: the customer only; its open sessions expire by the next command (the archive workflow)', async (t) => {
  const open: CustomerCommand = {
    type: 'CreateVerificationSession',
    ...scoped,
    session: { ...session, sessionId: 'vsess_1' },
    associatedEntityId: null,
    email: undefined,
    sendInvite: false,
  }
  const withSession = given([createdIndividual], open)
  customer
    .given(withSession)
    .when({ type: 'ArchiveCustomer', ...scoped })
    .thenMatches(t, [{ type: 'CustomerArchived' }])
  const expireArchived: CustomerCommand = { type: 'ExpireArchivedCustomerSessions', ...scoped }
  customer.given(withSession).when(expireArchived).then(t, [], 'nothing for a customer not archived')
  const archived = given(withSession, { type: 'ArchiveCustomer', ...scoped })
  customer
    .given(archived)
    .when(expireArchived)
    .thenMatches(t, [{ type: 'VerificationSessionExpired', data: { sessionId: 'vsess_1', reason: 'CUSTOMER_ARCHIVED', at: now } }])
  customer.given(given(archived, expireArchived)).when(expireArchived).then(t, [], 'nothing left open the second time')
  customer.given([]).when(expireArchived).then(t, [], 'never fails on a deleted customer')
})
