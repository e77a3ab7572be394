// Events of the Customer aggregate, version 1. One stream per customer holds its verification
// data, terms acceptances, associated persons and businesses (one ownership tree, checked in one
// decision) and its verification sessions. Events that become public `customer.*` webhooks carry
// `summary`, the customer as the payload shows it after the event, because a public event is made
// from one stored event alone.
import { z } from 'zod'
import { storedMetadataSchema } from '../shared/metadata.js'
import { sensitive } from '../shared/sensitive/index.js'
import { CUSTOMER_STATUSES, CUSTOMER_TYPES, ENTITY_TYPES, REVIEW_OUTCOMES } from './enums.js'
import { associatedEntityData } from './schemas/associatedEntity.js'
import { businessProfile } from './schemas/businessVerification.js'
import { individualProfile } from './schemas/individualVerification.js'

const metadata = storedMetadataSchema

export const customerSummary = z.object({
  id: z.string(),
  customerName: z.string(),
  email: z.string().nullable(),
  type: z.enum(CUSTOMER_TYPES),
  status: z.enum(CUSTOMER_STATUSES),
  countryCode: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type CustomerSummary = z.infer<typeof customerSummary>

export const TERMS_ACCEPTANCE_METHODS = ['HAS_AGREED_TO_TOS', 'SIGNED_AGREEMENT', 'PLATFORM_ACCEPTANCE_ID'] as const
export const termsAcceptance = z.object({
  acceptanceId: z.string(),
  method: z.enum(TERMS_ACCEPTANCE_METHODS),
  agreementId: z.string().nullable(),
  /** The acceptance id of the platform's own terms flow (metadata.infiniteTosAcceptanceId). */
  externalReference: z.string().nullable(),
  ipAddress: z.string().nullable(),
  acceptedAt: z.string(),
})
export type TermsAcceptance = z.infer<typeof termsAcceptance>

export const CustomerCreated = z.object({
  customerId: z.string(),
  organizationId: z.string(),
  type: z.enum(CUSTOMER_TYPES),
  customerName: z.string(),
  email: z.string().nullable(),
  phone: sensitive(z.string()).nullable(),
  countryCode: z.string().nullable(),
  metadata,
  firstName: z.string().optional(),
  middleName: z.string().optional(),
  lastName: z.string().optional(),
  createdAt: z.string(),
})

const saved = {
  customerId: z.string(),
  metadata: metadata.optional(),
  /** Warnings about the saved documents that did not block anything; replaces the previous list. */
  reviewWarnings: z.array(z.string()),
  updatedFields: z.array(z.string()),
  summary: customerSummary,
  savedAt: z.string(),
}
export const IndividualVerificationSaved = z.object({ ...saved, changes: individualProfile })
export const BusinessVerificationSaved = z.object({ ...saved, changes: businessProfile })

export const TermsAccepted = z.object({ customerId: z.string(), acceptance: termsAcceptance })

const statusChange = { customerId: z.string(), previousStatus: z.enum(CUSTOMER_STATUSES), summary: customerSummary }
export const CustomerSubmitted = z.object({ ...statusChange, submittedAt: z.string() })
export const CustomerReviewed = z.object({
  ...statusChange,
  outcome: z.enum(REVIEW_OUTCOMES),
  reasons: z.array(z.string()),
  /** Who decided: only the sandbox simulation exists today. */
  source: z.enum(['SANDBOX_SIMULATION']),
  reviewedAt: z.string(),
})
export const CustomerVerified = z.object({ customerId: z.string(), summary: customerSummary, verifiedAt: z.string() })
export const CustomerArchived = z.object({ ...statusChange, archivedAt: z.string() })
export const CustomerDeleted = z.object({ customerId: z.string(), deletedAt: z.string() })

/** What made a customer's personal data go: an operator, the end of the retention period, or a draft's deletion. */
export const ERASURE_TRIGGERS = ['OPERATOR', 'RETENTION', 'DELETED_BEFORE_SUBMISSION'] as const
export type ErasureTrigger = (typeof ERASURE_TRIGGERS)[number]
/**
 * The audit record of an erasure: who, why and when. The customer's data key is destroyed next, by
 * a workflow (commands/workflows/shredErasedCustomerData.ts); from then on every sensitive field
 * of the customer reads as ERASED. It may follow CustomerDeleted (a draft's deletion erases it).
 */
export const CustomerDataErased = z.object({
  customerId: z.string(),
  erasedAt: z.string(),
  erasedBy: z.string(),
  reason: z.string(),
  trigger: z.enum(ERASURE_TRIGGERS),
})

export const AssociatedEntityAdded = z.object({
  customerId: z.string(),
  entityId: z.string(),
  entityType: z.enum(ENTITY_TYPES),
  data: associatedEntityData,
  summary: customerSummary,
  createdAt: z.string(),
})
export const AssociatedEntityUpdated = z.object({
  customerId: z.string(),
  entityId: z.string(),
  changes: associatedEntityData,
  summary: customerSummary,
  updatedAt: z.string(),
})

const sessionRef = { customerId: z.string(), sessionId: z.string(), associatedEntityId: z.string().nullable() }
export const VerificationSessionCreated = z.object({
  ...sessionRef,
  verificationUrl: z.string(),
  email: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
})
export const VerificationLinkSent = z.object({ ...sessionRef, email: z.string(), sentAt: z.string() })
export const VerificationSessionSubmitted = z.object({ ...sessionRef, at: z.string() })
export const VerificationSessionCompleted = z.object({ ...sessionRef, at: z.string() })
export const VerificationSessionFailed = z.object({ ...sessionRef, reason: z.string(), at: z.string() })
export const VerificationSessionExpired = z.object({
  ...sessionRef,
  reason: z.enum(['EXPIRED', 'SUPERSEDED', 'CUSTOMER_ARCHIVED']),
  at: z.string(),
})

export const customerEventSchemas = {
  CustomerCreated,
  IndividualVerificationSaved,
  BusinessVerificationSaved,
  TermsAccepted,
  CustomerSubmitted,
  CustomerReviewed,
  CustomerVerified,
  CustomerArchived,
  CustomerDeleted,
  CustomerDataErased,
  AssociatedEntityAdded,
  AssociatedEntityUpdated,
  VerificationSessionCreated,
  VerificationLinkSent,
  VerificationSessionSubmitted,
  VerificationSessionCompleted,
  VerificationSessionFailed,
  VerificationSessionExpired,
} as const

type Schemas = typeof customerEventSchemas
export type CustomerEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type CustomerEventOf<K extends CustomerEvent['type']> = Extract<CustomerEvent, { type: K }>
