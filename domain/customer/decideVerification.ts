// Saving verification data (individual or business), with the terms acceptances it carries and,
// when asked, submission. Rules run on the merged data (saved + new), so a later save cannot
// leave the whole inconsistent; any broken rule refuses the save with a 422 naming each field.
import { type ErrorDetail, invalid } from '../errors.js'
import type { AgreementFacts, CustomerCommandOf } from './commands.js'
import { submissionEvents } from './decideLifecycle.js'
import type { CustomerEvent, TermsAcceptance } from './events.js'
import { requireEditable, requireType } from './guards.js'
import type { SaveIndividualVerificationBody } from './schemas/individualVerification.js'
import { type Customer, evolveCustomer, individualName } from './state.js'
import { businessRules } from './validation/businessRules.js'
import { documentRefRules, documentRefs } from './validation/documentRefs.js'
import { personRules, proofOfAddressDated } from './validation/personRules.js'
import { CUSTOMER_LIMITS } from './limits.js'
import type { ProofOfAddress } from './schemas/common.js'
import { purposeRules } from './validation/purposeRules.js'
import { reviewWarnings } from './warnings.js'

export const TOS_ACCEPTANCE_METADATA_KEY = 'infiniteTosAcceptanceId'
const EXTERNAL_ACCEPTANCE_MAX_LENGTH = 128

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

type TermsInput = Pick<SaveIndividualVerificationBody, 'hasAgreedToTos' | 'signedAgreementId' | 'metadata' | 'ipAddress'>

function termsRules(c: Customer, body: TermsInput, agreements: Readonly<Record<string, AgreementFacts>>): ErrorDetail[] {
  const details: ErrorDetail[] = []
  if (body.signedAgreementId !== undefined) {
    const agreement = agreements[body.signedAgreementId]
    if (!agreement || agreement.organizationId !== c.organizationId) {
      details.push({
        field: 'signedAgreementId',
        message: 'terms agreement not found: create one with POST /v1/tos/generate',
        value: body.signedAgreementId,
      })
    } else if (agreement.customerId !== null && agreement.customerId !== c.id) {
      details.push({
        field: 'signedAgreementId',
        message: 'the agreement was generated for another customer',
        value: body.signedAgreementId,
      })
    }
  }
  const external = body.metadata?.[TOS_ACCEPTANCE_METADATA_KEY]
  if (
    external !== undefined &&
    (typeof external !== 'string' || external.length === 0 || external.length > EXTERNAL_ACCEPTANCE_MAX_LENGTH)
  ) {
    details.push({
      field: `metadata.${TOS_ACCEPTANCE_METADATA_KEY}`,
      message: `must be a string of 1 to ${EXTERNAL_ACCEPTANCE_MAX_LENGTH} characters`,
    })
  }
  return details
}

/** New acceptance records for the methods used, skipping ones already on record. */
function termsEvents(
  c: Customer,
  body: TermsInput,
  acceptanceIds: readonly string[],
  ipAddress: string | null,
  now: string,
): CustomerEvent[] {
  const wanted: Omit<TermsAcceptance, 'acceptanceId' | 'ipAddress' | 'acceptedAt'>[] = []
  const has = (p: (a: TermsAcceptance) => boolean) => c.termsAcceptances.some(p)
  if (body.hasAgreedToTos === true && !has((a) => a.method === 'HAS_AGREED_TO_TOS')) {
    wanted.push({ method: 'HAS_AGREED_TO_TOS', agreementId: null, externalReference: null })
  }
  const agreementId = body.signedAgreementId
  if (agreementId !== undefined && !has((a) => a.agreementId === agreementId)) {
    wanted.push({ method: 'SIGNED_AGREEMENT', agreementId, externalReference: null })
  }
  const external = body.metadata?.[TOS_ACCEPTANCE_METADATA_KEY]
  if (typeof external === 'string' && !has((a) => a.externalReference === external)) {
    wanted.push({ method: 'PLATFORM_ACCEPTANCE_ID', agreementId: null, externalReference: external })
  }
  return wanted.map((w, i) => {
    const acceptanceId = acceptanceIds[i]
    if (acceptanceId === undefined) throw new Error('not enough acceptance ids supplied')
    return { type: 'TermsAccepted', data: { customerId: c.id, acceptance: { ...w, acceptanceId, ipAddress, acceptedAt: now } } }
  })
}

/** A new proof of address must be dated within 90 days (an older saved one counts as missing at submission). */
function proofOfAddressRules(proof: ProofOfAddress | undefined, now: Date): ErrorDetail[] {
  if (!proof || proofOfAddressDated(proof.documentDate, now, CUSTOMER_LIMITS.proofOfAddressMaxAgeDays)) return []
  return [
    {
      field: 'proofOfAddress.documentDate',
      message: `must be within the last ${CUSTOMER_LIMITS.proofOfAddressMaxAgeDays} days and not in the future`,
      value: proof.documentDate,
    },
  ]
}

function finish(c: Customer, saved: CustomerEvent[], terms: CustomerEvent[], submit: boolean, now: string): CustomerEvent[] {
  const events = [...saved, ...terms]
  if (!submit) return events
  const after = events.reduce(evolveCustomer, c)
  if (!after.exists) throw new Error('customer vanished while saving')
  return [...events, ...submissionEvents(after, now)]
}

export function decideSaveIndividual(c: Customer, command: CustomerCommandOf<'SaveIndividualVerification'>): CustomerEvent[] {
  requireType(c, 'INDIVIDUAL')
  requireEditable(c)
  const now = new Date(command.now)
  const { hasAgreedToTos: _h, signedAgreementId: _s, metadata, ...input } = command.body
  const changes = defined(input)
  const merged = { ...c.individual, ...changes }
  const person = personRules(merged, now)
  const details = [
    ...person.details,
    ...purposeRules(merged),
    ...proofOfAddressRules(changes.proofOfAddress, now),
    ...documentRefRules(documentRefs(merged), command.documents, { organizationId: c.organizationId, customerId: c.id }),
    ...termsRules(c, command.body, command.agreements),
  ]
  if (details.length > 0) throw invalid('verification_invalid', 'Verification data failed validation', details)
  if (changes.taxIdentificationNumber !== undefined) changes.taxIdentificationNumber = person.taxIdentificationNumber

  const saved: CustomerEvent[] = []
  if (Object.keys(changes).length > 0 || metadata !== undefined) {
    saved.push({
      type: 'IndividualVerificationSaved',
      data: savedData(c, changes, metadata, reviewWarnings(merged, command.documents, now), command.now, {
        customerName: individualName(merged) || c.customerName,
        email: merged.email ?? c.email,
        countryCode: merged.address?.country ?? c.countryCode,
      }),
    })
  }
  const terms = termsEvents(c, command.body, command.acceptanceIds, merged.ipAddress ?? null, command.now)
  return finish(c, saved, terms, command.submit, command.now)
}

/** The data both verification-saved events share: what changed, and the customer as it now reads. */
function savedData<Changes extends Record<string, unknown>>(
  c: Customer,
  changes: Changes,
  metadata: Record<string, unknown> | undefined,
  warnings: string[],
  now: string,
  shown: { customerName: string; email: string | null; countryCode: string | null },
) {
  return {
    customerId: c.id,
    changes,
    ...(metadata !== undefined ? { metadata } : {}),
    reviewWarnings: warnings,
    updatedFields: [...Object.keys(changes), ...(metadata !== undefined ? ['metadata'] : [])],
    summary: { id: c.id, type: c.type, status: c.status, createdAt: c.createdAt, updatedAt: now, ...shown },
    savedAt: now,
  }
}

export function decideSaveBusiness(c: Customer, command: CustomerCommandOf<'SaveBusinessVerification'>): CustomerEvent[] {
  requireType(c, 'BUSINESS')
  requireEditable(c)
  const now = new Date(command.now)
  const { hasAgreedToTos: _h, signedAgreementId: _s, metadata, ...input } = command.body
  const changes = defined(input)
  const merged = { ...c.business, ...changes }
  const rules = businessRules(merged, c.countryCode, now)
  const details = [
    ...rules.details,
    ...documentRefRules(documentRefs(merged), command.documents, { organizationId: c.organizationId, customerId: c.id }),
    ...termsRules(c, command.body, command.agreements),
  ]
  if (details.length > 0) throw invalid('verification_invalid', 'Verification data failed validation', details)
  if (changes.taxIdentificationNumber !== undefined) changes.taxIdentificationNumber = rules.taxIdentificationNumber

  const saved: CustomerEvent[] = []
  if (Object.keys(changes).length > 0 || metadata !== undefined) {
    saved.push({
      type: 'BusinessVerificationSaved',
      data: savedData(c, changes, metadata, reviewWarnings(merged, command.documents, now), command.now, {
        customerName: merged.businessLegalName ?? c.customerName,
        email: merged.email ?? c.email,
        countryCode: c.countryCode,
      }),
    })
  }
  const terms = termsEvents(c, command.body, command.acceptanceIds, merged.ipAddress ?? null, command.now)
  return finish(c, saved, terms, command.submit, command.now)
}
