// The counterparty as the API shows it (the fields of the transfer's `counterparty` expand shape,
// plus the customer it belongs to, isThirdParty and metadata), and the request that creates one.
// One source for validation, types and the OpenAPI document.
import { z } from 'zod'
import { invalid } from '../errors.js'
import { type Address, addressRules, addressSchema } from '../shared/address.js'
import { metadataSchema, storedMetadataSchema } from '../shared/metadata.js'
import type { Counterparty } from './decider.js'
import { BENEFICIARY_TYPES } from './enums.js'

export const COUNTERPARTY_LIMITS = {
  nameMaxLength: 200,
  customerIdMaxLength: 64,
} as const

export const beneficiaryNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(COUNTERPARTY_LIMITS.nameMaxLength)
  .describe(`Beneficiary's full name (a person) or legal name (a business), at most ${COUNTERPARTY_LIMITS.nameMaxLength} characters`)

export const beneficiaryTypeSchema = z.enum(BENEFICIARY_TYPES).describe('INDIVIDUAL (a person) or BUSINESS')

export const createCounterpartyBody = z.object({
  customerId: z.string().max(COUNTERPARTY_LIMITS.customerIdMaxLength).describe('The customer (cus_) whose payee this is'),
  name: beneficiaryNameSchema,
  beneficiaryType: beneficiaryTypeSchema,
  address: addressSchema.describe("Beneficiary's address; street lines are encrypted at rest"),
  isThirdParty: z
    .boolean()
    .default(true)
    .describe("true (default): someone other than the customer; false: the customer's own counterparty (one per customer)"),
  metadata: metadataSchema.default({}),
})
export type CreateCounterpartyBody = z.infer<typeof createCounterpartyBody>

export const counterpartyResource = z.object({
  id: z.string().describe('Counterparty id, prefix cp_'),
  customerId: z.string().describe('The customer (cus_) this counterparty belongs to'),
  name: z.string().describe("Beneficiary's name"),
  beneficiaryType: z.enum(BENEFICIARY_TYPES).describe('INDIVIDUAL or BUSINESS'),
  address: addressSchema
    .nullable()
    .describe("Beneficiary's address; null only for a customer's own counterparty made before the customer saved an address"),
  isThirdParty: z.boolean().describe("false for the customer's own counterparty (first-party accounts), true otherwise"),
  metadata: storedMetadataSchema.describe('Your free-form data'),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  updatedAt: z.string().describe('ISO 8601 timestamp'),
})
export type CounterpartyResource = z.infer<typeof counterpartyResource>

export function toCounterpartyResource(c: Omit<Counterparty, 'status' | 'organizationId'>): CounterpartyResource {
  return {
    id: c.id,
    customerId: c.customerId,
    name: c.name,
    beneficiaryType: c.beneficiaryType,
    address: c.address,
    isThirdParty: c.isThirdParty,
    metadata: c.metadata,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  }
}

/** 422 when a beneficiary address breaks the transliteration rule; `field` names it in the request (body.address). */
export function assertBeneficiaryAddress(address: Address | undefined, field: string): void {
  const details = addressRules(address, field)
  if (details.length > 0) throw invalid('address_invalid', 'The beneficiary address failed validation', details)
}
