// An IBAN (ISO 13616) as a request gives it: checked and normalized with ibantools (the country's
// length and BBAN format from the SWIFT IBAN registry, the mod-97 check digits, national check
// digits where the registry defines them), with one precise reason when it is refused.
import { ValidationErrorsIBAN, countrySpecs, electronicFormatIBAN, extractIBAN, validateIBAN } from 'ibantools'
import { z } from 'zod'
import { type Checked, accepted, refineWith, refused } from '../checked.js'
import { ERASED } from '../sensitive/index.js'
import { BANK_LIMITS } from './limits.js'

export type Iban = {
  /** Electronic format: upper case, no spaces (what is stored and compared). */
  iban: string
  /** The IBAN's country (ISO 3166-1 alpha-2; XK, Kosovo, issues IBANs too). */
  country: string
  bban: string
  bankIdentifier?: string
  branchIdentifier?: string
}

export type IbanOptions = {
  /** Names the field in the error detail. */
  field?: string
  /** When the request also names the bank's country, the IBAN must be of that country. */
  expectedCountry?: string
}

// Checked on the raw text, before upper-casing: toUpperCase turns 'ß' into 'SS' and 'ı' into 'I'.
const IBAN_CHARACTERS = /^[A-Za-z0-9 -]+$/
const CODE = 'invalid_iban'

/** Precise reasons, most telling first: a wrong length explains a bad checksum, not the reverse. */
const REASONS: readonly [ValidationErrorsIBAN, (country: string, length: number) => string][] = [
  [ValidationErrorsIBAN.WrongBBANLength, (c, n) => `has ${n} characters, but a ${c} IBAN has ${countrySpecs[c]?.chars ?? '?'}`],
  [ValidationErrorsIBAN.ChecksumNotNumber, () => 'must have two check digits after the country code'],
  [ValidationErrorsIBAN.WrongBBANFormat, (c) => `does not follow the ${c} account number format`],
  [ValidationErrorsIBAN.WrongIBANChecksum, () => 'has check digits that do not match: a character is mistyped, missing or swapped'],
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum, (c) => `has a national check digit that does not match the ${c} account number`],
  [ValidationErrorsIBAN.QRIBANNotAllowed, () => 'is a Swiss QR-IBAN, which only QR-bills use: give the account’s regular IBAN'],
]

export function validateIban(input: string, options: IbanOptions = {}): Checked<Iban> {
  const field = options.field ?? 'iban'
  const raw = input.trim()
  if (raw === '') return refused(CODE, field, 'is required')
  if (raw.length > BANK_LIMITS.inputMaxLength) return refused(CODE, field, `must be at most ${BANK_LIMITS.ibanMaxLength} characters`)
  if (!IBAN_CHARACTERS.test(raw)) return refused(CODE, field, 'may contain only letters A-Z, digits, and spaces between groups')
  const iban = electronicFormatIBAN(raw) ?? ''
  if (iban.length > BANK_LIMITS.ibanMaxLength) {
    return refused(CODE, field, `has ${iban.length} characters; an IBAN has at most ${BANK_LIMITS.ibanMaxLength}`)
  }
  const country = iban.slice(0, 2)
  if (!/^[A-Z]{2}$/.test(country)) return refused(CODE, field, 'must start with a two-letter country code')
  const spec = countrySpecs[country]
  if (!spec?.chars) return refused(CODE, field, `starts with ${country}, which is not a country that issues IBANs`)
  if (options.expectedCountry !== undefined && options.expectedCountry !== country) {
    return refused(CODE, field, `is a ${country} IBAN, but the bank's country is ${options.expectedCountry}`)
  }
  const { errorCodes } = validateIBAN(iban, { allowQRIBAN: false })
  const reason = REASONS.find(([code]) => errorCodes.includes(code))
  if (reason) return refused(CODE, field, reason[1](country, iban.length))
  if (errorCodes.length > 0) return refused(CODE, field, 'is not a valid IBAN')
  const parts = extractIBAN(iban)
  return accepted({
    iban,
    country,
    bban: parts.bban ?? iban.slice(4),
    ...(parts.bankIdentifier ? { bankIdentifier: parts.bankIdentifier } : {}),
    ...(parts.branchIdentifier ? { branchIdentifier: parts.branchIdentifier } : {}),
  })
}

/** An IBAN as reads show it: the country code and the last 4 characters, the rest hidden. */
export function maskIban(iban: string): string {
  if (iban === ERASED) return ERASED
  const electronic = electronicFormatIBAN(iban) ?? iban
  if (electronic.length <= 6) return '•'.repeat(electronic.length)
  return `${electronic.slice(0, 2)}${'•'.repeat(electronic.length - 6)}${electronic.slice(-4)}`
}

/** An IBAN in a request body: refused with the same precise message, and stored in electronic format. */
export const ibanSchema = z
  .string()
  .max(BANK_LIMITS.inputMaxLength)
  .superRefine(refineWith((value) => validateIban(value)))
  .overwrite((value) => electronicFormatIBAN(value.trim()) ?? value)
  .describe('IBAN (ISO 13616), with or without spaces; stored upper case without spaces')
