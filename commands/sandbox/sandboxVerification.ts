// The sandbox's test identity for an individual: for each requirement a customer still misses, the
// test value or test document that fills it, so the shortcut to APPROVED saves only what is missing
// and keeps everything the customer already gave (its name, email, country).
import type { Capability } from '../../domain/customer/rules/capabilities.js'
import { CAPABILITIES } from '../../domain/customer/rules/capabilities.js'
import { CUSTOMER_LIMITS } from '../../domain/customer/limits.js'
import { missingRequirements } from '../../domain/customer/requirements.js'
import type { SaveIndividualVerificationBody } from '../../domain/customer/schemas/individualVerification.js'
import type { Customer } from '../../domain/customer/state.js'
import type { DocumentContentType } from '../../domain/document/content.js'
import { type CountryCode, isCountryCode } from '../../domain/shared/country.js'

/** The test documents the sandbox may upload, each for one requirement. */
export type TestDocumentRole = 'governmentId' | 'selfie' | 'proofOfAddress'

export type TestDocument = { role: TestDocumentRole; fileName: string; contentType: DocumentContentType; content: Buffer }

export type SandboxVerificationPlan = {
  /** Uploaded first, as POST /v1/documents would (at most one per role). */
  documents: TestDocument[]
  /** The verification save that fills every missing requirement, given the uploaded documents' ids. */
  body(documentIds: Partial<Record<TestDocumentRole, string>>): SaveIndividualVerificationBody
}

// A real 1x1 PNG and a one-page PDF: small, and what a reviewer's viewer opens.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

/** The sandbox's test data: a US SSN of the documented test form, a date of birth, a phone. */
export const SANDBOX_IDENTITY = {
  firstName: 'Sandbox',
  lastName: 'Customer',
  email: 'sandbox.customer@example.com',
  phone: '+14155550123',
  dateOfBirth: '1990-01-01',
  usTaxId: '123-45-6789',
  passportNumber: 'SANDBOX0001',
  addressLine1: '1 Sandbox Street',
  city: 'Testville',
  postalCode: '00000',
  usState: 'CA',
} as const

const DOCUMENTS: Record<TestDocumentRole, TestDocument> = {
  governmentId: { role: 'governmentId', fileName: 'sandbox-passport.png', contentType: 'image/png', content: PNG },
  selfie: { role: 'selfie', fileName: 'sandbox-selfie.png', contentType: 'image/png', content: PNG },
  proofOfAddress: { role: 'proofOfAddress', fileName: 'sandbox-utility-bill.pdf', contentType: 'application/pdf', content: PDF },
}

function documentId(ids: Partial<Record<TestDocumentRole, string>>, role: TestDocumentRole): string {
  const id = ids[role]
  if (id === undefined) throw new Error(`sandbox verification: the ${role} document was not uploaded`)
  return id
}

/**
 * What the shortcut saves for `c` at `now`: the missing requirements filled with test data, terms accepted, and
 * `capabilities` requested when given (else the saved ones, or, when none were requested, every capability, so the
 * sandbox customer can use every rail).
 */
export function sandboxVerificationPlan(c: Customer, now: Date, capabilities: readonly Capability[] | undefined): SandboxVerificationPlan {
  const missing = new Set(missingRequirements(c, now))
  const p = c.individual
  const saved = p.address?.country ?? c.countryCode
  const residence: CountryCode = saved !== null && isCountryCode(saved) ? saved : 'US'
  // No nationality is invented: the residence stands in for it where a document needs a country.
  const nationality = p.nationality ?? residence
  const roles: TestDocumentRole[] = (['governmentId', 'selfie', 'proofOfAddress'] as const).filter((role) => missing.has(role))
  const savedCapabilities = p.requestedCapabilities ?? []
  const requested = capabilities ?? (savedCapabilities.length > 0 ? savedCapabilities : CAPABILITIES)
  const I = SANDBOX_IDENTITY
  return {
    documents: roles.map((role) => DOCUMENTS[role]),
    body(ids) {
      const body: SaveIndividualVerificationBody = { hasAgreedToTos: true, requestedCapabilities: [...requested] }
      if (missing.has('firstName')) body.firstName = I.firstName
      if (missing.has('lastName')) body.lastName = I.lastName
      if (missing.has('email')) body.email = I.email
      if (missing.has('phone')) body.phone = I.phone
      if (missing.has('dateOfBirth')) body.dateOfBirth = I.dateOfBirth
      // A US national (or, with no nationality saved, a US resident) gets a real-form SSN; anyone else may say they have none.
      if (missing.has('taxIdentificationNumber')) body.taxIdentificationNumber = nationality === 'US' ? I.usTaxId : 'NOT_APPLICABLE'
      if (missing.has('address')) {
        body.address = {
          addressLine1: I.addressLine1,
          city: I.city,
          postalCode: I.postalCode,
          country: residence,
          ...(residence === 'US' ? { state: I.usState } : {}),
        }
      }
      if (missing.has('governmentId')) {
        body.governmentId = {
          type: 'PASSPORT',
          idNumber: I.passportNumber,
          issuingCountry: nationality,
          frontImage: documentId(ids, 'governmentId'),
        }
      }
      if (missing.has('selfie')) {
        const kept = (p.supportingDocuments ?? []).slice(0, CUSTOMER_LIMITS.supportingDocumentsMax - 1)
        body.supportingDocuments = [...kept, { file: documentId(ids, 'selfie'), type: 'SELFIE' }]
      }
      if (missing.has('proofOfAddress')) {
        body.proofOfAddress = {
          type: 'UTILITY_BILL',
          documentDate: now.toISOString().slice(0, 10),
          file: documentId(ids, 'proofOfAddress'),
        }
      }
      return body
    },
  }
}
