// Associated persons (individual owners, signers, directors, control persons) and associated
// businesses (intermediate owners) of a business customer. Both get asp_ ids and form one tree.
import { z } from 'zod'
import { ASSOCIATED_ROLES } from '../rules/enums.js'
import { TAX_ID_DOCUMENT_TYPES } from '../enums.js'
import {
  businessName,
  dateOfBirth,
  governmentId,
  isoDate,
  personName,
  phone,
  sensitiveTaxId,
  shortText,
  supportingDocuments,
  timestamp,
} from './common.js'
import { addressSchema } from '../../shared/address.js'
import { countryCodeSchema } from '../../shared/country.js'
import { emailSchema } from '../../shared/email.js'

const associatedId = z
  .string()
  .max(64)
  .regex(/^asp_[0-9a-z]{26}$/, 'must be an associated entity id (asp_...)')

/** Fields both kinds share: the relationship to the customer and the tree. */
const relationship = {
  hasOwnership: z.boolean().optional().describe('Owns part of the customer (directly or through parentEntityId); default false'),
  hasControl: z
    .boolean()
    .optional()
    .describe('Has significant control; satisfies the submission rule when no individual holds 25% or more effective ownership'),
  parentEntityId: associatedId.optional().describe('Associated business that this entity owns a share of (nested ownership)'),
  ownershipPercentage: z
    .number()
    .min(0)
    .max(100)
    .optional()
    .describe(
      '0 to 100, share of the parent (or of the customer at the top); omit with hasOwnership true for an unquantified indirect owner',
    ),
  isSigner: z.boolean().optional(),
  isDirector: z.boolean().optional(),
  role: z.enum(ASSOCIATED_ROLES).optional(),
  title: shortText.optional(),
  email: emailSchema.optional().describe('Required when generateVerificationLink or sendInvite is true'),
  phone: phone.optional(),
  address: addressSchema.optional(),
  attestedOwnershipStructureAt: timestamp.optional(),
  relationshipDate: isoDate.optional(),
  supportingDocuments: supportingDocuments.optional(),
}

const linkFields = {
  generateVerificationLink: z.boolean().optional().describe('Create a verification session (vsess_) with a verificationUrl'),
  sendInvite: z.boolean().optional().describe('Also email the link (implies generateVerificationLink)'),
}

export const associatedBusinessFields = z.object({
  ...relationship,
  countryCode: countryCodeSchema.optional().describe('Country of incorporation'),
  businessName: businessName.optional(),
  registrationNumber: shortText.optional(),
  dateOfIncorporation: isoDate.optional(),
})

export const createAssociatedBusinessBody = associatedBusinessFields.extend(linkFields)
export type CreateAssociatedBusinessBody = z.infer<typeof createAssociatedBusinessBody>

export const associatedPersonFields = z.object({
  ...relationship,
  firstName: personName.optional(),
  middleName: personName.optional(),
  nickname: personName.optional(),
  lastName: personName.optional(),
  transliteratedFirstName: personName.optional(),
  transliteratedMiddleName: personName.optional(),
  transliteratedLastName: personName.optional(),
  dateOfBirth: dateOfBirth.optional(),
  nationality: countryCodeSchema.optional(),
  countryCode: countryCodeSchema.optional().describe('Country of residence'),
  taxResidenceCountry: countryCodeSchema.optional().describe('Only when it differs from nationality'),
  taxIdentificationNumber: sensitiveTaxId.optional().describe("Checked like an individual customer's. Never returned."),
  taxIdentificationDocumentType: z.enum(TAX_ID_DOCUMENT_TYPES).optional(),
  governmentId: governmentId.optional(),
})

export const createAssociatedPersonBody = associatedPersonFields.extend(linkFields)
export type CreateAssociatedPersonBody = z.infer<typeof createAssociatedPersonBody>

const atLeastOne = (b: Record<string, unknown>) => Object.values(b).some((v) => v !== undefined)
export const updateAssociatedBusinessBody = associatedBusinessFields.refine(atLeastOne, 'send at least one field to change')
export const updateAssociatedPersonBody = associatedPersonFields.refine(atLeastOne, 'send at least one field to change')

/** What the aggregate keeps for either kind: every field optional, plus the kind. */
export const associatedEntityData = associatedPersonFields.extend(associatedBusinessFields.shape)
export type AssociatedEntityData = z.infer<typeof associatedEntityData>
