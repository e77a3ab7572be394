// Rules on business verification data that need several fields or today's date.
import type { ErrorDetail } from '../../errors.js'
import { TAX_ID_OVERRIDE_PREFIX } from '../rules/taxId.js'
import type { BusinessProfile } from '../schemas/businessVerification.js'
import { addressRules } from '../../shared/address.js'
import { isFutureDate } from './personRules.js'
import { purposeRules } from './purposeRules.js'

/** US Employer Identification Number: NN-NNNNNNN (the dash optional on input). */
const EIN = /^\d{2}-?\d{7}$/

/** Details for every broken rule, and the tax id as it is to be stored. */
export function businessRules(
  b: BusinessProfile,
  countryCode: string | null,
  now: Date,
): { details: ErrorDetail[]; taxIdentificationNumber?: string } {
  const details: ErrorDetail[] = [...purposeRules(b)]
  let stored: string | undefined
  const tin = b.taxIdentificationNumber
  if (tin !== undefined) {
    const country = b.registeredAddress?.country ?? countryCode
    if (tin.startsWith(TAX_ID_OVERRIDE_PREFIX)) stored = tin
    else if (country === 'US') {
      if (EIN.test(tin)) stored = `${tin.replace('-', '').slice(0, 2)}-${tin.replace('-', '').slice(2)}`
      else details.push({ field: 'taxIdentificationNumber', message: 'not a valid US EIN: expected NN-NNNNNNN' })
    } else stored = tin
  }
  if (b.dateOfIncorporation !== undefined && isFutureDate(b.dateOfIncorporation, now)) {
    details.push({ field: 'dateOfIncorporation', message: 'must not be in the future', value: b.dateOfIncorporation })
  }
  details.push(...addressRules(b.registeredAddress, 'registeredAddress'), ...addressRules(b.physicalAddress, 'physicalAddress'))
  return { details, ...(stored !== undefined ? { taxIdentificationNumber: stored } : {}) }
}
