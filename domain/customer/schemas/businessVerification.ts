// Body of "save business customer verification" (the spec names no fields for it: chosen like
// Bridge and Stripe, see docs/decisions.md). All optional so progress can be saved.
import { z } from 'zod'
import { BUSINESS_TYPES } from '../enums.js'
import { ACCOUNT_PURPOSES, SOURCES_OF_FUNDS } from '../rules/enums.js'
import { CUSTOMER_LIMITS as L } from '../limits.js'
import { requestedCapabilities } from './capabilities.js'
import {
  businessName,
  expectedMonthlyPaymentsUsd,
  ipAddress,
  isoDate,
  longText,
  phone,
  proofOfSourceOfFunds,
  shortText,
  supportingDocuments,
  timestamp,
  sensitiveTaxId,
} from './common.js'
import { addressSchema } from '../../shared/address.js'
import { emailSchema } from '../../shared/email.js'
import { termsFields } from './individualVerification.js'

export const businessProfile = z.object({
  businessLegalName: businessName.optional(),
  businessTradeName: businessName.optional().describe('Doing-business-as name'),
  businessType: z.enum(BUSINESS_TYPES).optional(),
  businessDescription: longText.optional(),
  businessIndustry: shortText.optional().describe('Industry code, for example a NAICS code'),
  registrationNumber: shortText.optional(),
  taxIdentificationNumber: sensitiveTaxId.optional().describe('Business tax id; for a US business an EIN (NN-NNNNNNN). Never returned.'),
  dateOfIncorporation: isoDate.optional().describe('Not in the future'),
  registeredAddress: addressSchema.optional(),
  physicalAddress: addressSchema.optional(),
  email: emailSchema.optional(),
  phone: phone.optional(),
  website: z.url().max(L.urlMaxLength).optional(),
  accountPurpose: z.enum(ACCOUNT_PURPOSES).optional(),
  accountPurposeExplanation: longText.optional().describe('Required when accountPurpose is OTHER'),
  sourceOfFunds: z.enum(SOURCES_OF_FUNDS).optional(),
  sourceOfFundsDescription: longText.optional(),
  expectedMonthlyPaymentsUsd: expectedMonthlyPaymentsUsd.optional(),
  actingAsIntermediary: z.boolean().optional(),
  attestedOwnershipStructureAt: timestamp.optional().describe('When the platform attested the ownership structure is complete'),
  supportingDocuments: supportingDocuments.optional().describe('Include one item of type BUSINESS_FORMATION (formation document)'),
  proofOfSourceOfFunds: proofOfSourceOfFunds.optional(),
  ipAddress: ipAddress.optional(),
  requestedCapabilities: requestedCapabilities.optional(),
})
export type BusinessProfile = z.infer<typeof businessProfile>

export const saveBusinessVerificationBody = businessProfile.extend(termsFields)
export type SaveBusinessVerificationBody = z.infer<typeof saveBusinessVerificationBody>
