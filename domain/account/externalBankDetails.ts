// What an external bank account's coordinates are, and the rails they reach, checked with the
// shared bank validators: a US account (ABA routing number + account number: ACH and wire), an
// IBAN account (SEPA for EUR, the UK schemes for GBP, else SWIFT), or a SWIFT account (BIC +
// account number). Every problem is reported at once, one detail per field.
import type { ErrorDetail } from '../errors.js'
import { invalid } from '../errors.js'
import {
  validateAbaRoutingNumber,
  validateAccountNumber,
  validateBic,
  validateIban,
  validateUsAccountNumber,
} from '../shared/bank/index.js'
import type { Checked } from '../shared/checked.js'
import { isKnownCurrency } from '../shared/money/index.js'
import type { PaymentRail } from '../shared/paymentRails.js'
import type { AccountDetails } from './events.js'

export type ExternalBankInput = {
  accountOwnerName: string
  accountOwnerType: 'INDIVIDUAL' | 'BUSINESS'
  bankName?: string | undefined
  currency?: string | undefined
  accountNumber?: string | undefined
  routingNumber?: string | undefined
  accountType?: 'CHECKING' | 'SAVINGS' | undefined
  iban?: string | undefined
  bic?: string | undefined
  bankCountry?: string | undefined
}

export type ExternalBank = { details: Extract<AccountDetails, { kind: 'EXTERNAL_BANK' }>; rails: PaymentRail[] }

const US_RAILS: PaymentRail[] = ['ACH', 'ACH_SAME_DAY', 'WIRE', 'FEDWIRE', 'RTP']
const RAILS_BY_CURRENCY: Readonly<Record<string, PaymentRail[]>> = {
  EUR: ['SEPA', 'SEPA_INSTANT', 'SWIFT'],
  GBP: ['FASTER_PAYMENTS', 'BACS', 'CHAPS', 'SWIFT'],
}

class Problems {
  readonly details: ErrorDetail[] = []
  take<T>(checked: Checked<T>): T | undefined {
    if (checked.ok) return checked.value
    this.details.push(...checked.error.details)
    return undefined
  }
  add(field: string, message: string, value?: unknown): void {
    this.details.push({ field, message, ...(value === undefined ? {} : { value }) })
  }
}

const last4 = (value: string) => value.slice(-4)

export function checkExternalBank(input: ExternalBankInput): Checked<ExternalBank> {
  const p = new Problems()
  const currency = input.currency
  if (currency !== undefined && !isKnownCurrency(currency)) p.add('currency', 'must be a known currency code', currency)
  const base = {
    kind: 'EXTERNAL_BANK' as const,
    accountOwnerName: input.accountOwnerName,
    accountOwnerType: input.accountOwnerType,
    bankName: input.bankName ?? null,
  }
  let result: ExternalBank | undefined
  if (input.iban !== undefined) {
    for (const field of ['routingNumber', 'accountNumber', 'accountType'] as const)
      if (input[field] !== undefined) p.add(field, 'must be left out with an iban (the IBAN names the account)')
    const iban = p.take(validateIban(input.iban, { field: 'iban' }))
    const bic = input.bic === undefined ? undefined : p.take(validateBic(input.bic))
    if (currency === undefined) p.add('currency', 'is required with an iban (the currency the account is paid in)')
    if (iban && input.bankCountry !== undefined && input.bankCountry !== iban.country)
      p.add('bankCountry', `must match the IBAN's country ${iban.country}`, input.bankCountry)
    if (iban && currency !== undefined && (input.bic === undefined || bic))
      result = {
        details: {
          ...base,
          bankCountry: iban.country,
          currency,
          accountType: null,
          accountNumber: null,
          routingNumber: null,
          iban: iban.iban,
          bic: bic?.bic ?? null,
          last4: last4(iban.iban),
        },
        rails: RAILS_BY_CURRENCY[currency] ?? ['SWIFT'],
      }
  } else if (input.routingNumber !== undefined) {
    const routingNumber = p.take(validateAbaRoutingNumber(input.routingNumber))
    const accountNumber =
      input.accountNumber === undefined
        ? (p.add('accountNumber', 'is required with a routingNumber'), undefined)
        : p.take(validateUsAccountNumber(input.accountNumber))
    if (currency !== undefined && currency !== 'USD') p.add('currency', 'must be USD for a US account (routingNumber)', currency)
    if (input.bankCountry !== undefined && input.bankCountry !== 'US')
      p.add('bankCountry', 'must be US for a routingNumber', input.bankCountry)
    const bic = input.bic === undefined ? undefined : p.take(validateBic(input.bic))
    if (routingNumber && accountNumber && (input.bic === undefined || bic))
      result = {
        details: {
          ...base,
          bankCountry: 'US',
          currency: 'USD',
          accountType: input.accountType ?? 'CHECKING',
          accountNumber,
          routingNumber,
          iban: null,
          bic: bic?.bic ?? null,
          last4: last4(accountNumber),
        },
        rails: US_RAILS,
      }
  } else if (input.bic !== undefined && input.accountNumber !== undefined) {
    const bic = p.take(validateBic(input.bic))
    const accountNumber = p.take(validateAccountNumber(input.accountNumber))
    if (currency === undefined) p.add('currency', 'is required for a SWIFT account (the currency the account is paid in)')
    if (bic && input.bankCountry !== undefined && input.bankCountry !== bic.country)
      p.add('bankCountry', `must match the BIC's country ${bic.country}`, input.bankCountry)
    if (bic && accountNumber && currency !== undefined)
      result = {
        details: {
          ...base,
          bankCountry: bic.country,
          currency,
          accountType: input.accountType ?? null,
          accountNumber,
          routingNumber: null,
          iban: null,
          bic: bic.bic,
          last4: last4(accountNumber),
        },
        rails: ['SWIFT'],
      }
  } else {
    p.add('iban', 'give an iban; or a routingNumber and accountNumber (US); or a bic and accountNumber (SWIFT)')
  }
  if (p.details.length > 0 || !result)
    return { ok: false, error: invalid('invalid_bank_account', 'The bank account details are not valid', p.details) }
  return { ok: true, value: result }
}
