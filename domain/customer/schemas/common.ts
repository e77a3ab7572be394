// Field schemas shared by the customer request shapes: one source for validation, types and the
// OpenAPI document. Format rules (E.164, calendar dates) are 400s here; rules that need several
// fields or the stored state are 422s in domain/customer/validation. Country, address, email and
// metadata are every aggregate's: they live in domain/shared/.
import { z } from 'zod'
import { sensitive } from '../../shared/sensitive/index.js'
import { PROOF_OF_ADDRESS_TYPES, GOVERNMENT_ID_TYPES, SUPPORTING_DOCUMENT_TYPES } from '../enums.js'
import { CUSTOMER_LIMITS as L } from '../limits.js'
import { isIsoDate } from '../rules/dates.js'
import { UNSAFE_NAME_MESSAGE, hasUnsafeNameCharacter } from '../rules/names.js'
import { isE164 } from '../rules/phone.js'
import { countryCodeSchema } from '../../shared/country.js'
import { multiLineText } from '../../shared/text/index.js'

/** Personal data: sealed wherever it is stored. */
export const phone = sensitive(
  z
    .string()
    .max(L.phoneMaxLength)
    .refine(isE164, 'must be an E.164 phone number, for example +14155550123')
    .describe('E.164 phone number: +, country code, number; no spaces'),
)

export const isoDate = z.string().max(10).refine(isIsoDate, 'must be a calendar date as YYYY-MM-DD').describe('Date, YYYY-MM-DD')

export const timestamp = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 timestamp with time zone' })
  .describe('ISO 8601 timestamp with time zone')

/** A name as people read it: no control characters or bidi overrides (rules/names.ts). */
const nameText = (maxLength: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((v) => !hasUnsafeNameCharacter(v), UNSAFE_NAME_MESSAGE)

export const personName = nameText(L.nameMaxLength)

export const businessName = nameText(L.businessNameMaxLength)

export const shortText = z.string().trim().min(1).max(L.shortTextMaxLength)
/** Prose a reviewer reads (a description, an explanation, a remark): it may span lines (domain/shared/text). */
export const longText = multiLineText(z.string().trim().min(1).max(L.longTextMaxLength))
/** A tax id or a document number as typed: checked by the rules of its country, never returned. */
export const taxIdText = z.string().trim().min(1).max(L.taxIdMaxLength)
/** A tax id or document number as stored: sealed wherever it is kept (a masked form may be shown). */
export const sensitiveTaxId = sensitive(taxIdText)
/** A date of birth: personal data, sealed wherever it is stored. */
export const dateOfBirth = sensitive(isoDate)

export const documentId = z
  .string()
  .max(L.documentIdMaxLength)
  .regex(/^doc_[0-9a-z]{26}$/, 'must be a document id (doc_...) from POST /v1/documents')
  .describe('Document id from POST /v1/documents (prefix doc_)')

export const ipAddress = z.union([z.ipv4(), z.ipv6()]).describe('IP address of the customer when they gave the data (IPv4 or IPv6)')

export const documentItem = z.object({
  file: documentId,
  requirementId: shortText.optional(),
  type: z.enum(SUPPORTING_DOCUMENT_TYPES).describe('What the document is; SELFIE satisfies the selfie requirement'),
  subtype: shortText.optional().describe('For example UTILITY_BILL'),
  description: longText.optional(),
  remarks: longText.optional(),
})
export type DocumentItem = z.infer<typeof documentItem>

export const governmentId = z.object({
  type: z.enum(GOVERNMENT_ID_TYPES),
  idNumber: sensitiveTaxId.describe('Number printed on the document'),
  issuingCountry: countryCodeSchema,
  expirationDate: isoDate.optional().describe('Must not be in the past; within 30 days is a review warning'),
  frontImage: documentId,
  backImage: documentId.optional().describe('Required for DRIVERS_LICENSE, NATIONAL_ID and RESIDENCE_PERMIT'),
})
export type GovernmentId = z.infer<typeof governmentId>

export const proofOfAddress = z.object({
  type: z.enum(PROOF_OF_ADDRESS_TYPES),
  documentDate: isoDate.describe('Date printed on the document; within the last 90 days'),
  file: documentId,
})
export type ProofOfAddress = z.infer<typeof proofOfAddress>

/** Two decimal places at most: cents, never fractions of them. */
function hasCentsPrecision(value: number): boolean {
  const cents = value * 100
  return Math.abs(cents - Math.round(cents)) < 1e-6
}

export const expectedMonthlyPaymentsUsd = z
  .number()
  .min(0)
  .max(L.expectedMonthlyPaymentsUsdMax)
  .refine(hasCentsPrecision, 'at most two decimal places')
  .describe(
    'Declared estimate in US dollars (major units, at most 2 decimals, 0 to 1e12); used for risk tiering, never in balance arithmetic',
  )

export const supportingDocuments = z.array(documentItem).max(L.supportingDocumentsMax)
export const proofOfSourceOfFunds = z.array(documentItem).max(L.proofOfSourceOfFundsMax)
