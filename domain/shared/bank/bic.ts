// A BIC (SWIFT code, ISO 9362): 4 letters for the bank, 2 for the country, 2 letters or digits for
// the location, and optionally 3 for the branch. The format and country check are ibantools'.
import { ValidationErrorsBIC, extractBIC, validateBIC } from 'ibantools'
import { z } from 'zod'
import { type Checked, accepted, refineWith, refused } from '../checked.js'
import { BANK_LIMITS } from './limits.js'

export type Bic = {
  /** Upper case, 8 or 11 characters, as given (an 8-character BIC is not padded with XXX). */
  bic: string
  country: string
}

const CODE = 'invalid_bic'
const LENGTHS: readonly number[] = BANK_LIMITS.bicLengths

export function validateBic(input: string, field = 'bic'): Checked<Bic> {
  const raw = input.trim()
  if (raw === '') return refused(CODE, field, 'is required')
  if (raw.length > BANK_LIMITS.inputMaxLength || !LENGTHS.includes(raw.length)) {
    return refused(CODE, field, `must be 8 or 11 characters; got ${Math.min(raw.length, BANK_LIMITS.inputMaxLength)}`)
  }
  // Checked before upper-casing, which would turn 'ß' into 'SS'.
  if (!/^[A-Za-z0-9]+$/.test(raw)) return refused(CODE, field, 'may contain only letters A-Z and digits, without spaces')
  const bic = raw.toUpperCase()
  const { errorCodes } = validateBIC(bic)
  if (errorCodes.includes(ValidationErrorsBIC.NoBICCountry)) {
    return refused(CODE, field, `has ${bic.slice(4, 6)} as its country (characters 5-6), which is not a country code`)
  }
  if (errorCodes.length > 0) {
    return refused(
      CODE,
      field,
      'must be 4 letters (bank), 2 letters (country), 2 letters or digits (location) and optionally 3 letters or digits (branch)',
    )
  }
  return accepted({ bic, country: extractBIC(bic).countryCode ?? bic.slice(4, 6) })
}

/** A BIC in a request body: refused with the same precise message, stored upper case. */
export const bicSchema = z
  .string()
  .max(BANK_LIMITS.inputMaxLength)
  .superRefine(refineWith((value) => validateBic(value)))
  .overwrite((value) => value.trim().toUpperCase())
  .describe('BIC / SWIFT code (ISO 9362), 8 or 11 characters')
