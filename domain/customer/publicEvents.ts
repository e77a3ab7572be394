// Stored customer events as public webhook events (spec: Events). customer.created carries exactly
// the spec's fields; the other customer.* types carry the same fields plus what changed. One stored
// event gives at most one public event (an approval is two stored events: reviewed and verified).
import type { PublicEvent, PublicEventMapper } from '../publicEvents.js'
import type { CustomerEvent, CustomerSummary } from './events.js'

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

export const customerPublicEvents: PublicEventMapper = (stored) => {
  const event = { type: stored.type, data: stored.data } as CustomerEvent
  const out = (type: PublicEvent['type'], data: Record<string, unknown>, ...tags: (string | null)[]): PublicEvent => ({
    type,
    data,
    tags: tags.filter((t): t is string => t !== null),
  })
  switch (event.type) {
    case 'CustomerCreated': {
      const d = event.data
      return out(
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
      )
    }
    case 'IndividualVerificationSaved':
    case 'BusinessVerificationSaved':
      return out(
        'customer.updated',
        { ...customerData(event.data.summary), updatedFields: event.data.updatedFields },
        event.data.customerId,
      )
    case 'AssociatedEntityAdded':
    case 'AssociatedEntityUpdated':
      return out(
        'customer.updated',
        { ...customerData(event.data.summary), updatedFields: ['associatedEntities'], associatedEntityId: event.data.entityId },
        event.data.customerId,
        event.data.entityId,
      )
    case 'CustomerSubmitted':
    case 'CustomerReviewed':
    case 'CustomerArchived':
      return out(
        'customer.status_changed',
        {
          ...customerData(event.data.summary),
          previousStatus: event.data.previousStatus,
          ...(event.type === 'CustomerReviewed' ? { reasons: event.data.reasons } : {}),
        },
        event.data.customerId,
      )
    case 'CustomerVerified':
      return out('customer.verified', customerData(event.data.summary), event.data.customerId)
    case 'CustomerDeleted':
      return out('customer.deleted', { id: event.data.customerId, deleted: true, deletedAt: event.data.deletedAt }, event.data.customerId)
    case 'VerificationSessionCreated': {
      const d = event.data
      return out(
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
      )
    }
    case 'VerificationLinkSent': {
      const d = event.data
      return out(
        'verification.link.sent',
        { sessionId: d.sessionId, customerId: d.customerId, associatedEntityId: d.associatedEntityId, email: d.email, sentAt: d.sentAt },
        d.customerId,
        d.sessionId,
        d.associatedEntityId,
      )
    }
    case 'VerificationSessionSubmitted':
      return out(
        'verification.session.submitted',
        sessionData(event.data, 'SUBMITTED', event.data.at),
        event.data.customerId,
        event.data.sessionId,
        event.data.associatedEntityId,
      )
    case 'VerificationSessionCompleted':
      return out(
        'verification.session.completed',
        sessionData(event.data, 'COMPLETED', event.data.at),
        event.data.customerId,
        event.data.sessionId,
        event.data.associatedEntityId,
      )
    case 'VerificationSessionFailed':
      return out(
        'verification.session.failed',
        { ...sessionData(event.data, 'FAILED', event.data.at), reason: event.data.reason },
        event.data.customerId,
        event.data.sessionId,
        event.data.associatedEntityId,
      )
    case 'VerificationSessionExpired':
      return out(
        'verification.session.expired',
        { ...sessionData(event.data, 'EXPIRED', event.data.at), reason: event.data.reason },
        event.data.customerId,
        event.data.sessionId,
        event.data.associatedEntityId,
      )
    case 'TermsAccepted':
      return undefined
    // Not published: an operator's audit record (who erased, why) is no platform's business, and a
    // draft's deletion already sent customer.deleted. The spec lists no such public type either.
    case 'CustomerDataErased':
      return undefined
    default:
      return undefined
  }
}
