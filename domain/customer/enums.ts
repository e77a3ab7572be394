// Enumerations of the customer domain, spelled exactly as the spec lists them.
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const
export type CustomerType = (typeof CUSTOMER_TYPES)[number]

/** The status machine is written in docs/decisions.md ("Customers and onboarding"). */
export const CUSTOMER_STATUSES = ['DRAFT', 'UNDER_REVIEW', 'NEEDS_MORE_INFORMATION', 'APPROVED', 'REJECTED', 'ARCHIVED'] as const
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number]

export const REVIEW_OUTCOMES = ['APPROVED', 'REJECTED', 'NEEDS_MORE_INFORMATION'] as const
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number]

// The spec's own lists (employment, purpose, source of funds, roles) live in rules/enums.ts;
// country codes are shared (domain/shared/country.ts).
export { ACCOUNT_PURPOSES, ASSOCIATED_ROLES, EMPLOYMENT_STATUSES, SOURCES_OF_FUNDS } from './rules/enums.js'

export const GOVERNMENT_ID_TYPES = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'RESIDENCE_PERMIT'] as const
/** Government ids printed on two sides need a back image. */
export const TWO_SIDED_GOVERNMENT_IDS: ReadonlySet<string> = new Set(['DRIVERS_LICENSE', 'NATIONAL_ID', 'RESIDENCE_PERMIT'])
export const PROOF_OF_ADDRESS_TYPES = ['UTILITY_BILL', 'BANK_STATEMENT', 'LEASE_AGREEMENT', 'GOVERNMENT_LETTER'] as const

/** Types of a supportingDocuments item; SELFIE satisfies the selfie requirement. */
export const SUPPORTING_DOCUMENT_TYPES = [
  'SELFIE',
  'PROOF_OF_ADDRESS',
  'PROOF_OF_SOURCE_OF_FUNDS',
  'BUSINESS_FORMATION',
  'OWNERSHIP_STRUCTURE',
  'GOVERNMENT_ID',
  'TAX_DOCUMENT',
  'OTHER',
] as const

export const TAX_ID_DOCUMENT_TYPES = ['SSN', 'ITIN', 'NATIONAL_TAX_ID', 'PASSPORT', 'OTHER'] as const
export const BUSINESS_TYPES = ['LLC', 'CORPORATION', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NON_PROFIT', 'TRUST', 'OTHER'] as const

export const ENTITY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const
export type EntityType = (typeof ENTITY_TYPES)[number]

export const SESSION_STATUSES = ['ACTIVE', 'SUBMITTED', 'COMPLETED', 'FAILED', 'EXPIRED'] as const
export type SessionStatus = (typeof SESSION_STATUSES)[number]

export const CAPABILITY_STATUSES = ['PENDING', 'ACTIVE', 'REJECTED', 'INACTIVE'] as const
