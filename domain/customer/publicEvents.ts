// Stored customer events as public webhook events (spec: Events). customer.created carries exactly
// the spec's fields; the other customer.* types carry the same fields plus what changed. One stored
// event gives at most one public event (an approval is two stored events: reviewed and verified).
import { type PublicEvent, publicEventMappersOf } from '../publicEvents.js'
import type { CustomerEvent, CustomerEventOf, CustomerSummary } from './events.js'

const customerData = (s: CustomerSummary) => ({
  id: s.id,
  customerName: s.customerName,
  email: s.email,
  type: s.type,
  status: s.status,
  countryCode: s.countryCode,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
})

const sessionData = (d: { customerId: string; sessionId: string; associatedEntityId: string | null }, status: string, at: string) => ({
  id: d.sessionId,
  customerId: d.customerId,
  associatedEntityId: d.associatedEntityId,
  status,
  updatedAt: at,
})

const out = (type: PublicEvent['type'], data: Record<string, unknown>, ...tags: (string | null)[]): PublicEvent => ({
  type,
  data,
  tags: tags.filter((t): t is string => t !== null),
})

const verificationSaved = ({ data: d }: CustomerEventOf<'IndividualVerificationSaved' | 'BusinessVerificationSaved'>) =>
  out('customer.updated', { ...customerData(d.summary), updatedFields: d.updatedFields }, d.customerId)

const entityChanged = ({ data: d }: CustomerEventOf<'AssociatedEntityAdded' | 'AssociatedEntityUpdated'>) =>
  out(
    'customer.updated',
    { ...customerData(d.summary), updatedFields: ['associatedEntities'], associatedEntityId: d.entityId },
    d.customerId,
    d.entityId,
  )

const statusChanged = (event: CustomerEventOf<'CustomerSubmitted' | 'CustomerReviewed' | 'CustomerArchived'>) =>
  out(
    'customer.status_changed',
    {
      ...customerData(event.data.summary),
      previousStatus: event.data.previousStatus,
      ...(event.type === 'CustomerReviewed' ? { reasons: event.data.reasons } : {}),
    },
    event.data.customerId,
  )

// Not published (no mapper): TermsAccepted; and CustomerDataErased, an operator's audit record (who
// erased, why) that is no platform's business, after a draft's deletion already sent customer.deleted.
// The spec lists no such public type either.
export const customerPublicEvents = publicEventMappersOf<CustomerEvent>({
  CustomerCreated: ({ data: d }) =>
    out(
      'customer.created',
      {
        id: d.customerId,
        customerName: d.customerName,
        email: d.email,
        type: d.type,
        status: 'DRAFT',
        countryCode: d.countryCode,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      },
      d.customerId,
    ),
  IndividualVerificationSaved: verificationSaved,
  BusinessVerificationSaved: verificationSaved,
  AssociatedEntityAdded: entityChanged,
  AssociatedEntityUpdated: entityChanged,
  CustomerSubmitted: statusChanged,
  CustomerReviewed: statusChanged,
  CustomerArchived: statusChanged,
  CustomerVerified: ({ data: d }) => out('customer.verified', customerData(d.summary), d.customerId),
  CustomerDeleted: ({ data: d }) => out('customer.deleted', { id: d.customerId, deleted: true, deletedAt: d.deletedAt }, d.customerId),
  VerificationSessionCreated: ({ data: d }) =>
    out(
      'verification.session.created',
      {
        ...sessionData(d, 'ACTIVE', d.createdAt),
        verificationUrl: d.verificationUrl,
        expiresAt: d.expiresAt,
        createdAt: d.createdAt,
      },
      d.customerId,
      d.sessionId,
      d.associatedEntityId,
    ),
  VerificationLinkSent: ({ data: d }) =>
    out(
      'verification.link.sent',
      { sessionId: d.sessionId, customerId: d.customerId, associatedEntityId: d.associatedEntityId, email: d.email, sentAt: d.sentAt },
      d.customerId,
      d.sessionId,
      d.associatedEntityId,
    ),
  VerificationSessionSubmitted: ({ data: d }) =>
    out('verification.session.submitted', sessionData(d, 'SUBMITTED', d.at), d.customerId, d.sessionId, d.associatedEntityId),
  VerificationSessionCompleted: ({ data: d }) =>
    out('verification.session.completed', sessionData(d, 'COMPLETED', d.at), d.customerId, d.sessionId, d.associatedEntityId),
  VerificationSessionFailed: ({ data: d }) =>
    out(
      'verification.session.failed',
      { ...sessionData(d, 'FAILED', d.at), reason: d.reason },
      d.customerId,
      d.sessionId,
      d.associatedEntityId,
    ),
  VerificationSessionExpired: ({ data: d }) =>
    out(
      'verification.session.expired',
      { ...sessionData(d, 'EXPIRED', d.at), reason: d.reason },
      d.customerId,
      d.sessionId,
      d.associatedEntityId,
    ),
})
