// Body of "save individual customer verification": every field of the spec, all optional so
// progress can be saved. Omitted fields keep their saved value; arrays replace the saved array.
import { z } from 'zod'
import { ACCOUNT_PURPOSES, EMPLOYMENT_STATUSES, SOURCES_OF_FUNDS } from '../rules/enums.js'
import { requestedCapabilities } from './capabilities.js'
import {
  dateOfBirth,
  expectedMonthlyPaymentsUsd,
  governmentId,
  ipAddress,
  longText,
  personName,
  phone,
  proofOfAddress,
  proofOfSourceOfFunds,
  shortText,
  supportingDocuments,
  sensitiveTaxId,
} from './common.js'
import { addressSchema } from '../../shared/address.js'
import { countryCodeSchema } from '../../shared/country.js'
import { emailSchema } from '../../shared/email.js'
import { metadataSchema } from '../../shared/metadata.js'

/** The verification data kept for an individual (what a save may change). */
export const individualProfile = z.object({
  firstName: personName.optional(),
  middleName: personName.optional(),
  nickname: personName.optional(),
  lastName: personName.optional(),
  transliteratedFirstName: personName.optional().describe('Required when firstName has characters outside Latin-1'),
  transliteratedMiddleName: personName.optional().describe('Required when middleName has characters outside Latin-1'),
  transliteratedLastName: personName.optional().describe('Required when lastName has characters outside Latin-1'),
  email: emailSchema.optional(),
  phone: phone.optional(),
  dateOfBirth: dateOfBirth.optional(),
  address: addressSchema.optional().describe('Residential address'),
  nationality: countryCodeSchema.optional(),
  taxResidenceCountry: countryCodeSchema.optional().describe('Only when it differs from nationality'),
  taxIdentificationNumber: sensitiveTaxId
    .optional()
    .describe(
      "Checked against the nationality's format; NOT_APPLICABLE accepted except for US nationals; OVERRIDE:<value> stores an unmatched " +
        'value as is. Never returned.',
    ),
  occupation: shortText.optional().describe('Occupation code'),
  employmentStatus: z.enum(EMPLOYMENT_STATUSES).optional(),
  accountPurpose: z.enum(ACCOUNT_PURPOSES).optional(),
  accountPurposeExplanation: longText.optional().describe('Required when accountPurpose is OTHER'),
  sourceOfFunds: z.enum(SOURCES_OF_FUNDS).optional(),
  sourceOfFundsDescription: longText.optional(),
  expectedMonthlyPaymentsUsd: expectedMonthlyPaymentsUsd.optional(),
  actingAsIntermediary: z.boolean().optional(),
  governmentId: governmentId.optional(),
  proofOfAddress: proofOfAddress.optional().describe('Required when the residential address is outside the US; dated within 90 days'),
  supportingDocuments: supportingDocuments.optional().describe('Include one item of type SELFIE for the selfie requirement'),
  proofOfSourceOfFunds: proofOfSourceOfFunds.optional(),
  ipAddress: ipAddress.optional(),
  requestedCapabilities: requestedCapabilities.optional(),
})
export type IndividualProfile = z.infer<typeof individualProfile>

/** Terms fields: they create acceptance records rather than profile data. */
export const termsFields = {
  hasAgreedToTos: z
    .boolean()
    .optional()
    .describe('true records a terms acceptance (false changes nothing: an acceptance cannot be withdrawn here)'),
  signedAgreementId: z
    .string()
    .max(64)
    .regex(/^tos_[0-9a-z]{26}$/, 'must be an agreement id (tos_...) from POST /v1/tos/generate')
    .optional()
    .describe('Terms agreement id from POST /v1/tos/generate; records an acceptance of that agreement'),
  metadata: metadataSchema
    .optional()
    .describe(
      'Your data, replaces the saved metadata. Key infiniteTosAcceptanceId (string) records an acceptance made in your own terms flow.',
    ),
}

export const saveIndividualVerificationBody = individualProfile.extend(termsFields)
export type SaveIndividualVerificationBody = z.infer<typeof saveIndividualVerificationBody>

export const submitQuery = z.object({
  submit: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: submit for review after saving'),
})
