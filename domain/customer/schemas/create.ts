// Bodies that create customers. Verification data follows through the verification operations.
import { z } from 'zod'
import { businessName, personName, phone } from './common.js'
import { countryCodeSchema } from '../../shared/country.js'
import { emailSchema } from '../../shared/email.js'
import { metadataSchema } from '../../shared/metadata.js'

export const createIndividualCustomerBody = z.object({
  firstName: personName,
  middleName: personName.optional(),
  lastName: personName,
  email: emailSchema.optional(),
  phone: phone.optional(),
  countryCode: countryCodeSchema.optional().describe('Country of residence; taken from the residential address when that is saved'),
  metadata: metadataSchema.optional(),
})
export type CreateIndividualCustomerBody = z.infer<typeof createIndividualCustomerBody>

export const createBusinessCustomerBody = z.object({
  businessName: businessName.describe('Legal name; shown as customerName'),
  email: emailSchema.optional(),
  phone: phone.optional(),
  countryCode: countryCodeSchema.describe('Country of incorporation'),
  metadata: metadataSchema.optional(),
})
export type CreateBusinessCustomerBody = z.infer<typeof createBusinessCustomerBody>
