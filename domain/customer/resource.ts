// The customer as the API shows it, and the views built from the aggregate state: one mapper for
// the write responses and the reads, so a POST answer equals the following GET.
import { z } from 'zod'
import { CAPABILITY_STATUSES, CUSTOMER_STATUSES, CUSTOMER_TYPES, ENTITY_TYPES, SESSION_STATUSES } from './enums.js'
import { TERMS_ACCEPTANCE_METHODS } from './events.js'
import { effectiveOwnership } from './ownership/effectiveOwnership.js'
import { REQUIREMENT_STATUSES, missingRequirements, ownershipNodes, requirementsOf } from './requirements.js'
import { addressSchema } from '../shared/address.js'
import { effectiveSessionStatus } from './decideSessions.js'
import type { AssociatedEntity, Customer, VerificationSession } from './state.js'
import { documentIdsOf } from './validation/documentRefs.js'

export const customerResource = z.object({
  id: z.string().describe('Customer id, prefix cus_'),
  type: z.enum(CUSTOMER_TYPES),
  status: z
    .enum(CUSTOMER_STATUSES)
    .describe('DRAFT, UNDER_REVIEW, NEEDS_MORE_INFORMATION, APPROVED, REJECTED or ARCHIVED (see the status machine)'),
  customerName: z.string().describe('First and last name of an individual; legal name of a business'),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  countryCode: z.string().nullable().describe('Residence of an individual, incorporation of a business (ISO 3166-1 alpha-2)'),
  requestedCapabilities: z.array(z.string()),
  capabilities: z
    .array(z.object({ capability: z.string(), status: z.enum(CAPABILITY_STATUSES) }))
    .describe('Requested capabilities: PENDING until approval, then ACTIVE; REJECTED on rejection; INACTIVE once archived'),
  statusReasons: z.array(z.string()).describe('Reasons given with the last review outcome'),
  metadata: z.record(z.string(), z.unknown()),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type CustomerResource = z.infer<typeof customerResource>

function capabilityStatus(status: Customer['status']): (typeof CAPABILITY_STATUSES)[number] {
  if (status === 'APPROVED') return 'ACTIVE'
  if (status === 'REJECTED') return 'REJECTED'
  if (status === 'ARCHIVED') return 'INACTIVE'
  return 'PENDING'
}

export function toCustomerResource(c: Customer): CustomerResource {
  const requested = (c.type === 'INDIVIDUAL' ? c.individual.requestedCapabilities : c.business.requestedCapabilities) ?? []
  return {
    id: c.id,
    type: c.type,
    status: c.status,
    customerName: c.customerName,
    email: c.email,
    phone: c.phone,
    countryCode: c.countryCode,
    requestedCapabilities: requested,
    capabilities: requested.map((capability) => ({ capability, status: capabilityStatus(c.status) })),
    statusReasons: c.statusReasons,
    metadata: c.metadata,
    submittedAt: c.submittedAt,
    reviewedAt: c.reviewedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }
}

// ---- Save verification / submit response (spec fields exactly) ------------------------------

export const verificationResult = z.object({
  customerId: z.string(),
  status: z.enum(CUSTOMER_STATUSES),
  documentIds: z.array(z.string()).describe('Every document the saved verification data references'),
  submittedAt: z.string().optional().describe('Present only once actually submitted (UNDER_REVIEW and later review outcomes)'),
  missingRequirements: z.array(z.string()).describe('What submission still needs; the data is saved and the customer stays as it was'),
  reviewWarnings: z.array(z.string()).describe('Document warnings that did not block submission'),
})

const SUBMITTED: ReadonlySet<Customer['status']> = new Set(['UNDER_REVIEW', 'APPROVED', 'REJECTED'])

export function toVerificationResult(c: Customer, now: Date): z.infer<typeof verificationResult> {
  const data = c.type === 'INDIVIDUAL' ? c.individual : c.business
  return {
    customerId: c.id,
    status: c.status,
    documentIds: documentIdsOf(data),
    ...(c.submittedAt !== null && SUBMITTED.has(c.status) ? { submittedAt: c.submittedAt } : {}),
    missingRequirements: c.status === 'DRAFT' || c.status === 'NEEDS_MORE_INFORMATION' ? missingRequirements(c, now) : [],
    reviewWarnings: c.reviewWarnings,
  }
}

// ---- Compliance checklist ---------------------------------------------------------------------

export const complianceResource = z.object({
  customerId: z.string(),
  type: z.enum(CUSTOMER_TYPES),
  status: z.enum(CUSTOMER_STATUSES),
  requirements: z.array(z.object({ requirement: z.string(), status: z.enum(REQUIREMENT_STATUSES), description: z.string() })),
  missingRequirements: z.array(z.string()),
  reviewWarnings: z.array(z.string()),
  termsAcceptances: z.array(
    z.object({
      id: z.string().describe('Acceptance record id, prefix tosa_'),
      method: z.enum(TERMS_ACCEPTANCE_METHODS),
      agreementId: z.string().nullable(),
      externalReference: z.string().nullable(),
      acceptedAt: z.string(),
    }),
  ),
  submittedAt: z.string().nullable(),
})

export function toComplianceResource(c: Customer, now: Date): z.infer<typeof complianceResource> {
  const requirements = requirementsOf(c, now)
  return {
    customerId: c.id,
    type: c.type,
    status: c.status,
    requirements,
    missingRequirements: requirements.filter((r) => r.status === 'MISSING').map((r) => r.requirement),
    reviewWarnings: c.reviewWarnings,
    termsAcceptances: c.termsAcceptances.map((a) => ({
      id: a.acceptanceId,
      method: a.method,
      agreementId: a.agreementId,
      externalReference: a.externalReference,
      acceptedAt: a.acceptedAt,
    })),
    submittedAt: c.submittedAt,
  }
}

// ---- Verification sessions ---------------------------------------------------------------------

export const verificationSessionResource = z.object({
  id: z.string().describe('Session id, prefix vsess_'),
  customerId: z.string(),
  associatedEntityId: z.string().nullable().describe('The associated person or business verified, or null for the customer itself'),
  status: z.enum(SESSION_STATUSES).describe('ACTIVE until submitted or expiresAt; then SUBMITTED, COMPLETED, FAILED or EXPIRED'),
  verificationUrl: z.string(),
  email: z.string().nullable(),
  expiresAt: z.string(),
  linkSentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})

export function toSessionResource(customerId: string, s: VerificationSession, now: Date): z.infer<typeof verificationSessionResource> {
  return {
    id: s.id,
    customerId,
    associatedEntityId: s.associatedEntityId,
    status: effectiveSessionStatus(s, now),
    verificationUrl: s.verificationUrl,
    email: s.email,
    expiresAt: s.expiresAt,
    linkSentAt: s.linkSentAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }
}

// ---- Associated persons and businesses --------------------------------------------------------

const verificationLink = z.object({
  sessionId: z.string(),
  verificationUrl: z.string(),
  expiresAt: z.string(),
  status: z.enum(SESSION_STATUSES),
})
const n = <T extends z.ZodType>(t: T) => t.nullable()

export const associatedEntityResource = z.object({
  id: z.string().describe('Associated entity id, prefix asp_'),
  createdAt: z.string(),
  updatedAt: z.string(),
  entityType: z.enum(ENTITY_TYPES),
  hasOwnership: z.boolean(),
  hasControl: z.boolean(),
  parentEntityId: z.string().nullable(),
  details: z
    .object({
      firstName: n(z.string()),
      nickname: n(z.string()),
      lastName: n(z.string()),
      middleName: n(z.string()),
      dateOfBirth: n(z.string()),
      taxResidenceCountry: n(z.string()),
      transliteratedFirstName: n(z.string()),
      transliteratedMiddleName: n(z.string()),
      transliteratedLastName: n(z.string()),
      taxIdentificationDocumentType: n(z.string()),
    })
    .describe('Person details (all null for a business)'),
  countryCode: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: addressSchema.nullable(),
  ownershipPercentage: z.number().nullable(),
  effectiveOwnershipPercentage: z.number().describe('Share of the customer held through the tree (percentages multiplied down)'),
  isSigner: z.boolean(),
  isDirector: z.boolean(),
  role: z.string().nullable(),
  title: z.string().nullable(),
  businessName: z.string().nullable(),
  registrationNumber: z.string().nullable(),
  dateOfIncorporation: z.string().nullable(),
  relationshipDate: z.string().nullable(),
  documents: z.array(z.string()).describe('Document ids (doc_) this entity references'),
  attestedOwnershipStructureAt: z.string().nullable(),
  displayName: z.string(),
  verificationLink: verificationLink.nullable().describe('The latest verification session of this entity, or null'),
})
export type AssociatedEntityResource = z.infer<typeof associatedEntityResource>

export function toAssociatedResource(c: Customer, e: AssociatedEntity, now: Date): AssociatedEntityResource {
  const d = e.data
  const session = c.sessions.filter((s) => s.associatedEntityId === e.id).at(-1)
  const effective = effectiveOwnership(ownershipNodes(c)).get(e.id) ?? 0
  const personName = [d.firstName, d.lastName].filter(Boolean).join(' ')
  return {
    id: e.id,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    entityType: e.entityType,
    hasOwnership: d.hasOwnership ?? false,
    hasControl: d.hasControl ?? false,
    parentEntityId: d.parentEntityId ?? null,
    details: {
      firstName: d.firstName ?? null,
      nickname: d.nickname ?? null,
      lastName: d.lastName ?? null,
      middleName: d.middleName ?? null,
      dateOfBirth: d.dateOfBirth ?? null,
      taxResidenceCountry: d.taxResidenceCountry ?? null,
      transliteratedFirstName: d.transliteratedFirstName ?? null,
      transliteratedMiddleName: d.transliteratedMiddleName ?? null,
      transliteratedLastName: d.transliteratedLastName ?? null,
      taxIdentificationDocumentType: d.taxIdentificationDocumentType ?? null,
    },
    countryCode: d.countryCode ?? null,
    email: d.email ?? null,
    phone: d.phone ?? null,
    address: d.address ?? null,
    ownershipPercentage: d.ownershipPercentage ?? null,
    effectiveOwnershipPercentage: effective,
    isSigner: d.isSigner ?? false,
    isDirector: d.isDirector ?? false,
    role: d.role ?? null,
    title: d.title ?? null,
    businessName: d.businessName ?? null,
    registrationNumber: d.registrationNumber ?? null,
    dateOfIncorporation: d.dateOfIncorporation ?? null,
    relationshipDate: d.relationshipDate ?? null,
    documents: documentIdsOf(d),
    attestedOwnershipStructureAt: d.attestedOwnershipStructureAt ?? null,
    displayName: e.entityType === 'BUSINESS' ? (d.businessName ?? e.id) : personName || e.id,
    verificationLink: session
      ? {
          sessionId: session.id,
          verificationUrl: session.verificationUrl,
          expiresAt: session.expiresAt,
          status: effectiveSessionStatus(session, now),
        }
      : null,
  }
}
