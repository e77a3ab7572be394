// Bank account numbers outside IBANs: a US account number is the 4 to 17 digits an ACH entry carries;
// elsewhere an account number is 1 to 34 letters and digits (an IBAN's length), as banks print it.
import { z } from 'zod'
import { type Checked, accepted, refineWith, refused } from '../checked.js'
import { ERASED } from '../sensitive/index.js'
import { BANK_LIMITS } from './limits.js'

const CODE = 'invalid_account_number'
const L = BANK_LIMITS

export function validateUsAccountNumber(input: string, field = 'accountNumber'): Checked<string> {
  const digits = input.trim()
  if (digits === '') return refused(CODE, field, 'is required')
  if (digits.length > L.inputMaxLength || !/^[0-9]+$/.test(digits)) {
    return refused(CODE, field, 'must contain digits 0-9 only, without spaces or dashes')
  }
  if (digits.length < L.usAccountNumberMinLength || digits.length > L.usAccountNumberMaxLength) {
    return refused(CODE, field, `must be ${L.usAccountNumberMinLength} to ${L.usAccountNumberMaxLength} digits; got ${digits.length}`)
  }
  return accepted(digits)
}

export function validateAccountNumber(input: string, field = 'accountNumber'): Checked<string> {
  const value = input.trim()
  if (value === '') return refused(CODE, field, 'is required')
  if (value.length > L.inputMaxLength || !/^[A-Za-z0-9]+$/.test(value)) {
    return refused(CODE, field, 'must contain letters A-Z and digits only, without spaces or dashes')
  }
  if (value.length > L.accountNumberMaxLength) {
    return refused(CODE, field, `must be at most ${L.accountNumberMaxLength} characters; got ${value.length}`)
  }
  return accepted(value.toUpperCase())
}

/** An account number as reads show it: its last 4 characters, the rest hidden, length kept. */
export function maskAccountNumber(accountNumber: string): string {
  if (accountNumber === ERASED) return ERASED
  if (accountNumber.length <= 4) return '•'.repeat(accountNumber.length)
  return `${'•'.repeat(accountNumber.length - 4)}${accountNumber.slice(-4)}`
}

export const usAccountNumberSchema = z
  .string()
  .max(L.inputMaxLength)
  .superRefine(refineWith((value) => validateUsAccountNumber(value)))
  .overwrite((value) => value.trim())
  .describe(`US bank account number: ${L.usAccountNumberMinLength} to ${L.usAccountNumberMaxLength} digits`)

export const accountNumberSchema = z
  .string()
  .max(L.inputMaxLength)
  .superRefine(refineWith((value) => validateAccountNumber(value)))
  .overwrite((value) => value.trim().toUpperCase())
  .describe(`Bank account number: 1 to ${L.accountNumberMaxLength} letters and digits`)
