// Stored customer events as public webhook events: exact payloads and tags.
import t from 'tap'
import { customerPublicEvents } from '../../domain/customer/publicEvents.js'
import { publicEventOf } from '../../domain/publicEvents.js'

const at = new Date('2026-03-01T10:00:00.000Z')
const summary = {
  id: 'cus_1',
  customerName: 'Ada Lovelace',
  email: 'ada@example.com',
  type: 'INDIVIDUAL',
  status: 'UNDER_REVIEW',
  countryCode: 'US',
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
}
const map = (type: string, data: Record<string, unknown>) => publicEventOf(customerPublicEvents, { type, data, recordedAt: at })

t.test("customer.created carries exactly the spec's fields", async (t) => {
  const event = map('CustomerCreated', {
    customerId: 'cus_1',
    organizationId: 'org_a',
    type: 'INDIVIDUAL',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+14155550123',
    countryCode: 'US',
    metadata: { secret: 'x' },
    firstName: 'Ada',
    lastName: 'Lovelace',
    createdAt: '2026-03-01T09:00:00.000Z',
  })
  t.same(event, {
    type: 'customer.created',
    data: {
      id: 'cus_1',
      customerName: 'Ada Lovelace',
      email: 'ada@example.com',
      type: 'INDIVIDUAL',
      status: 'DRAFT',
      countryCode: 'US',
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    },
    tags: ['cus_1'],
  })
})

t.test('status changes, verification, update and deletion', async (t) => {
  t.match(map('CustomerSubmitted', { customerId: 'cus_1', previousStatus: 'DRAFT', summary, submittedAt: summary.updatedAt }), {
    type: 'customer.status_changed',
    data: { id: 'cus_1', status: 'UNDER_REVIEW', previousStatus: 'DRAFT' },
  })
  t.match(map('CustomerVerified', { customerId: 'cus_1', summary: { ...summary, status: 'APPROVED' }, verifiedAt: summary.updatedAt }), {
    type: 'customer.verified',
    data: { status: 'APPROVED' },
  })
  t.match(
    map('IndividualVerificationSaved', {
      customerId: 'cus_1',
      changes: { phone: '+1' },
      reviewWarnings: [],
      updatedFields: ['phone'],
      summary,
      savedAt: summary.updatedAt,
    }),
    { type: 'customer.updated', data: { id: 'cus_1', updatedFields: ['phone'] } },
  )
  t.notOk(
    'changes' in
      (map('IndividualVerificationSaved', {
        customerId: 'cus_1',
        changes: { taxIdentificationNumber: '123-45-6789' },
        reviewWarnings: [],
        updatedFields: ['taxIdentificationNumber'],
        summary,
        savedAt: summary.updatedAt,
      })?.data ?? {}),
    'no verification data (tax ids) in webhooks',
  )
  t.same(map('CustomerDeleted', { customerId: 'cus_1', deletedAt: summary.updatedAt }), {
    type: 'customer.deleted',
    data: { id: 'cus_1', deleted: true, deletedAt: summary.updatedAt },
    tags: ['cus_1'],
  })
  t.equal(map('TermsAccepted', { customerId: 'cus_1', acceptance: {} }), undefined, 'terms acceptances are not public events')
  t.equal(
    map('CustomerDataErased', { customerId: 'cus_1', erasedAt: 'now', erasedBy: 'alice', reason: 'asked', trigger: 'OPERATOR' }),
    undefined,
    "an erasure's audit record is not a public event",
  )
  t.equal(map('WebhookEndpointCreated', {}), undefined, "other aggregates' events are not mapped here")
})

t.test('verification sessions and links', async (t) => {
  const ref = { customerId: 'cus_1', sessionId: 'vsess_1', associatedEntityId: 'asp_1' }
  t.match(
    map('VerificationSessionCreated', { ...ref, verificationUrl: 'https://v/x', email: null, expiresAt: 'later', createdAt: 'now' }),
    {
      type: 'verification.session.created',
      data: { id: 'vsess_1', status: 'ACTIVE', verificationUrl: 'https://v/x' },
      tags: ['cus_1', 'vsess_1', 'asp_1'],
    },
  )
  t.match(map('VerificationLinkSent', { ...ref, email: 'a@b.example', sentAt: 'now' }), {
    type: 'verification.link.sent',
    data: { sessionId: 'vsess_1', email: 'a@b.example' },
  })
  for (const [type, pub, status] of [
    ['VerificationSessionSubmitted', 'verification.session.submitted', 'SUBMITTED'],
    ['VerificationSessionCompleted', 'verification.session.completed', 'COMPLETED'],
    ['VerificationSessionFailed', 'verification.session.failed', 'FAILED'],
    ['VerificationSessionExpired', 'verification.session.expired', 'EXPIRED'],
  ] as const)
    t.match(map(type, { ...ref, at: 'now', reason: 'EXPIRED' }), { type: pub, data: { id: 'vsess_1', status } })
})
