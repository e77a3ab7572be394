// Bank details an external bank account carries: IBAN, BIC, US routing and account numbers, each a
// check that returns the normalized value or a typed 422 error, and the zod schema doing the same.
export { BANK_LIMITS } from './limits.js'
export { type Iban, type IbanOptions, ibanSchema, maskIban, validateIban } from './iban.js'
export { type Bic, bicSchema, validateBic } from './bic.js'
export { abaRoutingNumberSchema, validateAbaRoutingNumber } from './abaRouting.js'
export {
  accountNumberSchema,
  maskAccountNumber,
  usAccountNumberSchema,
  validateAccountNumber,
  validateUsAccountNumber,
} from './accountNumber.js'
