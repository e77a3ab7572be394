// The requirement checklist of a customer: what submission needs and what is still missing.
// Individuals: the spec's base package. Businesses: business data, terms, and the ownership rule
// (every individual with 25% or more effective ownership, or else a control person), each
// required person with their identity data.
import { CUSTOMER_LIMITS } from './limits.js'
import { type OwnershipNode, submissionOwnershipRequirement } from './ownership/effectiveOwnership.js'
import type { Customer } from './state.js'
import { proofOfAddressDated } from './validation/personRules.js'

export const REQUIREMENT_STATUSES = ['SATISFIED', 'MISSING', 'NOT_APPLICABLE'] as const
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number]
export type Requirement = { requirement: string; status: RequirementStatus; description: string }

const item = (requirement: string, satisfied: boolean, description: string): Requirement => ({
  requirement,
  status: satisfied ? 'SATISFIED' : 'MISSING',
  description,
})

function individualRequirements(c: Customer, now: Date): Requirement[] {
  const p = c.individual
  const residence = p.address?.country ?? c.countryCode
  const proofNeeded = residence !== 'US'
  const proof = p.proofOfAddress
  const proofOk = proof !== undefined && proofOfAddressDated(proof.documentDate, now, CUSTOMER_LIMITS.proofOfAddressMaxAgeDays)
  return [
    item('firstName', p.firstName !== undefined, 'First name'),
    item('lastName', p.lastName !== undefined, 'Last name'),
    item('email', c.email !== null, 'Email address'),
    item('phone', c.phone !== null, 'Phone number (E.164)'),
    item('dateOfBirth', p.dateOfBirth !== undefined, 'Date of birth'),
    item('taxIdentificationNumber', p.taxIdentificationNumber !== undefined, 'Tax identification number'),
    item('address', p.address !== undefined, 'Residential address'),
    item('governmentId', p.governmentId !== undefined, 'Government id with its images'),
    item(
      'selfie',
      (p.supportingDocuments ?? []).some((d) => d.type === 'SELFIE'),
      'Selfie: a supportingDocuments item of type SELFIE',
    ),
    proofNeeded
      ? item('proofOfAddress', proofOk, 'Proof of address dated within the last 90 days (residents outside the US)')
      : { requirement: 'proofOfAddress', status: 'NOT_APPLICABLE', description: 'Not needed for US residents' },
    item(
      'termsAcceptance',
      c.termsAcceptances.length > 0,
      'Terms acceptance: hasAgreedToTos, signedAgreementId or metadata.infiniteTosAcceptanceId',
    ),
  ]
}

export function ownershipNodes(c: Customer): OwnershipNode[] {
  return c.associated.map((e) => ({
    id: e.id,
    kind: e.entityType,
    parentId: e.data.parentEntityId ?? null,
    ownershipPercentage: e.data.ownershipPercentage ?? null,
    hasOwnership: e.data.hasOwnership ?? false,
    hasControl: e.data.hasControl ?? false,
  }))
}

const PERSON_FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'address', 'taxIdentificationNumber'] as const

function personGaps(c: Customer, personId: string): Requirement[] {
  const person = c.associated.find((e) => e.id === personId)
  return PERSON_FIELDS.map((f) =>
    item(`associatedPersons.${personId}.${f}`, person?.data[f] !== undefined, `${f} of associated person ${personId}`),
  )
}

function businessRequirements(c: Customer): Requirement[] {
  const b = c.business
  const items = [
    item('businessLegalName', b.businessLegalName !== undefined, 'Legal name of the business'),
    item('email', c.email !== null, 'Email address'),
    item('registrationNumber', b.registrationNumber !== undefined, 'Registration number'),
    item('taxIdentificationNumber', b.taxIdentificationNumber !== undefined, 'Business tax identification number'),
    item('dateOfIncorporation', b.dateOfIncorporation !== undefined, 'Date of incorporation'),
    item('registeredAddress', b.registeredAddress !== undefined, 'Registered address'),
    item(
      'formationDocument',
      (b.supportingDocuments ?? []).some((d) => d.type === 'BUSINESS_FORMATION'),
      'Formation document: a supportingDocuments item of type BUSINESS_FORMATION',
    ),
    item(
      'termsAcceptance',
      c.termsAcceptances.length > 0,
      'Terms acceptance: hasAgreedToTos, signedAgreementId or metadata.infiniteTosAcceptanceId',
    ),
  ]
  const rule = submissionOwnershipRequirement(ownershipNodes(c), CUSTOMER_LIMITS.controllingOwnershipPercent)
  items.push(
    item(
      'beneficialOwnership',
      rule.satisfied,
      rule.satisfied ? 'Every individual with 25% or more effective ownership, or else a control person' : rule.missing,
    ),
  )
  if (rule.basis === 'OWNERSHIP') {
    for (const id of rule.requiredPersonIds) items.push(...personGaps(c, id))
  } else if (rule.basis === 'CONTROL') {
    // Any one control person satisfies the rule: a complete one, or else the gaps of the first.
    const gaps = rule.requiredPersonIds.map((id) => personGaps(c, id))
    const complete = gaps.find((g) => g.every((r) => r.status === 'SATISFIED'))
    items.push(...(complete ?? gaps[0] ?? []))
  }
  return items
}

export function requirementsOf(c: Customer, now: Date): Requirement[] {
  return c.type === 'INDIVIDUAL' ? individualRequirements(c, now) : businessRequirements(c)
}

export function missingRequirements(c: Customer, now: Date): string[] {
  return requirementsOf(c, now)
    .filter((r) => r.status === 'MISSING')
    .map((r) => r.requirement)
}
