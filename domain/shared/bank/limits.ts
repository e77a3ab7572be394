// Every bound of the bank-detail validators, named in one place. Input longer than `inputMaxLength`
// is refused before any parsing, so a 10 000-character string costs one comparison.
export const BANK_LIMITS = {
  /** Longest raw input any bank field reads (an IBAN with group separators is at most 42). */
  inputMaxLength: 64,
  /** ISO 13616: an IBAN is at most 34 characters in electronic form. */
  ibanMaxLength: 34,
  /** ISO 9362: a BIC is 8 characters (head office) or 11 (with a branch code). */
  bicLengths: [8, 11],
  /** An ABA routing transit number: 8 digits and a check digit. */
  abaRoutingLength: 9,
  /** US account numbers: the 4 to 17 digits ACH (NACHA) entries carry. */
  usAccountNumberMinLength: 4,
  usAccountNumberMaxLength: 17,
  /** Other countries' account numbers: at most an IBAN's 34 characters. */
  accountNumberMaxLength: 34,
} as const
