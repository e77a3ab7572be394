// The Customer aggregate's state and how each event changes it. Plain JSON (no Maps or Dates):
// the customers projection stores it as is and maps it with the same functions as the write side.
import { assertInvariant } from '../errors.js'
import type { CustomerStatus, CustomerType, EntityType, SessionStatus } from './enums.js'
import type { CustomerEvent, CustomerSummary, TermsAcceptance } from './events.js'
import type { AssociatedEntityData } from './schemas/associatedEntity.js'
import type { BusinessProfile } from './schemas/businessVerification.js'
import type { IndividualProfile } from './schemas/individualVerification.js'
import { withoutPersonalData } from './erasure.js'

export type AssociatedEntity = { id: string; entityType: EntityType; data: AssociatedEntityData; createdAt: string; updatedAt: string }

export type VerificationSession = {
  id: string
  associatedEntityId: string | null
  status: SessionStatus
  verificationUrl: string
  email: string | null
  expiresAt: string
  linkSentAt: string | null
  createdAt: string
  updatedAt: string
}

export type Customer = {
  exists: true
  id: string
  organizationId: string
  type: CustomerType
  status: CustomerStatus
  customerName: string
  email: string | null
  phone: string | null
  countryCode: string | null
  metadata: Record<string, unknown>
  individual: IndividualProfile
  business: BusinessProfile
  termsAcceptances: TermsAcceptance[]
  associated: AssociatedEntity[]
  sessions: VerificationSession[]
  reviewWarnings: string[]
  statusReasons: string[]
  submittedAt: string | null
  reviewedAt: string | null
  /** When its personal data was erased (its sensitive fields read ERASED since); null while kept. */
  erasedAt: string | null
  createdAt: string
  updatedAt: string
}

/**
 * A deleted customer keeps only its organization and whether its data was erased: everything
 * answers 404 afterwards, but an erasure may still be recorded (decideErasure.ts).
 */
export type DeletedCustomer = { exists: false; deleted: true; organizationId: string; erasedAt: string | null }

export type CustomerState = { exists: false; deleted: false } | DeletedCustomer | Customer

export const initialCustomerState = (): CustomerState => ({ exists: false, deleted: false })

export function summaryOf(c: Customer): CustomerSummary {
  return {
    id: c.id,
    customerName: c.customerName,
    email: c.email,
    type: c.type,
    status: c.status,
    countryCode: c.countryCode,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }
}

/** customerName of an individual: first and last name (middle names stay in the profile). */
export function individualName(p: { firstName?: string | undefined; lastName?: string | undefined }): string {
  return [p.firstName, p.lastName].filter(Boolean).join(' ')
}

function defined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>
}

function updateSession(c: Customer, sessionId: string, change: Partial<VerificationSession>): Customer {
  return { ...c, sessions: c.sessions.map((s) => (s.id === sessionId ? { ...s, ...change } : s)) }
}

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  if (event.type === 'CustomerCreated') {
    const d = event.data
    return {
      exists: true,
      id: d.customerId,
      organizationId: d.organizationId,
      type: d.type,
      status: 'DRAFT',
      customerName: d.customerName,
      email: d.email,
      phone: d.phone,
      countryCode: d.countryCode,
      metadata: d.metadata,
      individual:
        d.type === 'INDIVIDUAL'
          ? defined({
              firstName: d.firstName,
              middleName: d.middleName,
              lastName: d.lastName,
              email: d.email ?? undefined,
              phone: d.phone ?? undefined,
            })
          : {},
      business:
        d.type === 'BUSINESS'
          ? defined({ businessLegalName: d.customerName, email: d.email ?? undefined, phone: d.phone ?? undefined })
          : {},
      termsAcceptances: [],
      associated: [],
      sessions: [],
      reviewWarnings: [],
      statusReasons: [],
      submittedAt: null,
      reviewedAt: null,
      erasedAt: null,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
    }
  }
  if (event.type === 'CustomerDataErased') {
    // What the state held is gone too, so the read model (folded by this function) says so at once.
    if (state.exists) return { ...state, ...withoutPersonalData(state), erasedAt: state.erasedAt ?? event.data.erasedAt }
    assertInvariant(state.deleted, 'CustomerDataErased on a customer that never existed')
    return { ...state, erasedAt: state.erasedAt ?? event.data.erasedAt }
  }
  assertInvariant(state.exists, `${event.type} on a customer that does not exist`)
  const c = state
  switch (event.type) {
    case 'IndividualVerificationSaved':
    case 'BusinessVerificationSaved': {
      const d = event.data
      const base = { ...c, reviewWarnings: d.reviewWarnings, ...(d.metadata ? { metadata: d.metadata } : {}) }
      const s = d.summary
      const header = { customerName: s.customerName, email: s.email, countryCode: s.countryCode, updatedAt: d.savedAt }
      const phone = d.changes.phone ?? c.phone
      if (event.type === 'IndividualVerificationSaved')
        return { ...base, ...header, phone, individual: { ...c.individual, ...defined(event.data.changes) } }
      return { ...base, ...header, phone, business: { ...c.business, ...defined(event.data.changes) } }
    }
    case 'TermsAccepted':
      return { ...c, termsAcceptances: [...c.termsAcceptances, event.data.acceptance] }
    case 'CustomerSubmitted':
      return { ...c, status: 'UNDER_REVIEW', submittedAt: event.data.submittedAt, statusReasons: [], updatedAt: event.data.submittedAt }
    case 'CustomerReviewed':
      return {
        ...c,
        status: event.data.outcome,
        statusReasons: event.data.reasons,
        reviewedAt: event.data.reviewedAt,
        updatedAt: event.data.reviewedAt,
      }
    case 'CustomerVerified':
      return c
    case 'CustomerArchived':
      return { ...c, status: 'ARCHIVED', updatedAt: event.data.archivedAt }
    case 'CustomerDeleted':
      return { exists: false, deleted: true, organizationId: c.organizationId, erasedAt: c.erasedAt ?? null }
    case 'AssociatedEntityAdded': {
      const d = event.data
      const entity: AssociatedEntity = {
        id: d.entityId,
        entityType: d.entityType,
        data: d.data,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      }
      return { ...c, associated: [...c.associated, entity], updatedAt: d.createdAt }
    }
    case 'AssociatedEntityUpdated': {
      const d = event.data
      const associated = c.associated.map((e) =>
        e.id === d.entityId ? { ...e, data: { ...e.data, ...defined(d.changes) }, updatedAt: d.updatedAt } : e,
      )
      return { ...c, associated, updatedAt: d.updatedAt }
    }
    case 'VerificationSessionCreated': {
      const d = event.data
      const session: VerificationSession = {
        id: d.sessionId,
        associatedEntityId: d.associatedEntityId,
        status: 'ACTIVE',
        verificationUrl: d.verificationUrl,
        email: d.email,
        expiresAt: d.expiresAt,
        linkSentAt: null,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      }
      return { ...c, sessions: [...c.sessions, session] }
    }
    case 'VerificationLinkSent':
      return updateSession(c, event.data.sessionId, { linkSentAt: event.data.sentAt, updatedAt: event.data.sentAt })
    case 'VerificationSessionSubmitted':
      return updateSession(c, event.data.sessionId, { status: 'SUBMITTED', updatedAt: event.data.at })
    case 'VerificationSessionCompleted':
      return updateSession(c, event.data.sessionId, { status: 'COMPLETED', updatedAt: event.data.at })
    case 'VerificationSessionFailed':
      return updateSession(c, event.data.sessionId, { status: 'FAILED', updatedAt: event.data.at })
    case 'VerificationSessionExpired':
      return updateSession(c, event.data.sessionId, { status: 'EXPIRED', updatedAt: event.data.at })
  }
}
