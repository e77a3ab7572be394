// Bodies that create customers. Verification data follows through the verification operations.
import { z } from 'zod'
import { CUSTOMER_LIMITS as L } from '../limits.js'
import { businessName, countryCode, email, metadata, personName, phone } from './common.js'

export const createIndividualCustomerBody = z.object({
  firstName: personName,
  middleName: personName.optional(),
  lastName: personName,
  email: email.optional(),
  phone: phone.optional(),
  countryCode: countryCode.optional().describe('Country of residence; taken from the residential address when that is saved'),
  metadata: metadata.optional(),
})
export type CreateIndividualCustomerBody = z.infer<typeof createIndividualCustomerBody>

export const createBusinessCustomerBody = z.object({
  businessName: businessName.describe('Legal name; shown as customerName'),
  email: email.optional(),
  phone: phone.optional(),
  countryCode: countryCode.describe('Country of incorporation'),
  metadata: metadata.optional(),
})
export type CreateBusinessCustomerBody = z.infer<typeof createBusinessCustomerBody>
