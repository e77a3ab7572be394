// The saved verification data as the API reads it back (GET /v1/customers/{id}/verification): what
// was saved, with tax ids and government id numbers reduced to their last four characters (never
// returned in full) and, once the customer is erased, every personal field reading [erased].
import { z } from 'zod'
import { CUSTOMER_TYPES } from './enums.js'
import { erasable, last4 } from '../shared/sensitive/index.js'
import { governmentId } from './schemas/common.js'
import { businessProfile } from './schemas/businessVerification.js'
import { individualProfile } from './schemas/individualVerification.js'
import type { Customer } from './state.js'

const last4Field = z.string().nullable().describe('Last four characters of the number saved; null when none was saved')

const governmentIdView = erasable(governmentId)
  .omit({ idNumber: true })
  .extend({ idNumberLast4: z.string().describe('Last four characters of the document number') })

export const individualVerificationView = erasable(individualProfile)
  .omit({ taxIdentificationNumber: true, governmentId: true })
  .extend({ taxIdentificationNumberLast4: last4Field, governmentId: governmentIdView.optional() })

export const businessVerificationView = erasable(businessProfile)
  .omit({ taxIdentificationNumber: true })
  .extend({ taxIdentificationNumberLast4: last4Field })

export const savedVerificationResource = z.object({
  customerId: z.string(),
  type: z.enum(CUSTOMER_TYPES),
  individual: individualVerificationView.nullable().describe('The saved data of an individual customer; null for a business'),
  business: businessVerificationView.nullable().describe('The saved data of a business customer; null for an individual'),
  erasedAt: z.string().nullable().describe("When the customer's personal data was erased; its personal fields then read [erased]"),
  updatedAt: z.string(),
})
export type SavedVerificationResource = z.infer<typeof savedVerificationResource>

const masked = (value: string | undefined) => (value === undefined ? null : last4(value))

export function toSavedVerificationResource(c: Customer): SavedVerificationResource {
  const individual = () => {
    const { taxIdentificationNumber, governmentId: id, ...rest } = c.individual
    return {
      ...rest,
      taxIdentificationNumberLast4: masked(taxIdentificationNumber),
      ...(id ? { governmentId: (({ idNumber, ...other }) => ({ ...other, idNumberLast4: last4(idNumber) }))(id) } : {}),
    }
  }
  const business = () => {
    const { taxIdentificationNumber, ...rest } = c.business
    return { ...rest, taxIdentificationNumberLast4: masked(taxIdentificationNumber) }
  }
  return {
    customerId: c.id,
    type: c.type,
    individual: c.type === 'INDIVIDUAL' ? individual() : null,
    business: c.type === 'BUSINESS' ? business() : null,
    erasedAt: c.erasedAt,
    updatedAt: c.updatedAt,
  }
}
