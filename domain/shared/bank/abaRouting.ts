// A US ABA routing transit number: 9 digits whose weighted sum (weights 3, 7, 1 repeated) is a
// multiple of 10, and whose first two digits are a Federal Reserve routing symbol. Written here:
// the npm packages for it are unmaintained, and the rule is the five lines below.
import { z } from 'zod'
import { type Checked, accepted, refineWith, refused } from '../checked.js'
import { BANK_LIMITS } from './limits.js'

const CODE = 'invalid_routing_number'
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const

/** 00 US government, 01-12 Federal Reserve districts, 21-32 thrifts, 61-72 electronic, 80 traveler's checks. */
function isRoutingSymbol(prefix: number): boolean {
  return prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
}

/** The 3-7-1 weighted sum of 9 ASCII digits. */
const weightedSum = (digits: string): number => WEIGHTS.reduce((sum, weight, i) => sum + weight * Number(digits[i]), 0)

export function validateAbaRoutingNumber(input: string, field = 'routingNumber'): Checked<string> {
  const digits = input.trim()
  if (digits === '') return refused(CODE, field, 'is required')
  if (digits.length > BANK_LIMITS.inputMaxLength || !/^[0-9]+$/.test(digits)) {
    return refused(CODE, field, 'must contain digits 0-9 only')
  }
  if (digits.length !== BANK_LIMITS.abaRoutingLength) return refused(CODE, field, `must be exactly 9 digits; got ${digits.length}`)
  if (/^0+$/.test(digits)) return refused(CODE, field, 'is all zeros, which is no bank')
  if (!isRoutingSymbol(Number(digits.slice(0, 2)))) {
    return refused(
      CODE,
      field,
      `starts with ${digits.slice(0, 2)}, which is not a Federal Reserve routing symbol (00-12, 21-32, 61-72, 80)`,
    )
  }
  const sum = weightedSum(digits)
  if (sum % 10 !== 0) {
    const expected = (10 - ((sum - Number(digits[8])) % 10)) % 10
    return refused(CODE, field, `has a check digit that does not match: with these first 8 digits the 9th would be ${expected}`)
  }
  return accepted(digits)
}

export const abaRoutingNumberSchema = z
  .string()
  .max(BANK_LIMITS.inputMaxLength)
  .superRefine(refineWith((value) => validateAbaRoutingNumber(value)))
  .overwrite((value) => value.trim())
  .describe('US ABA routing number: 9 digits with a valid check digit')
