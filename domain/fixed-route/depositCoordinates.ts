// Where a fixed route takes its deposits (spec: sourceAccount.depositInstructions), generated when
// the route is created and dedicated to it (depositMatching DEDICATED: whatever arrives at these
// coordinates is the route's, no reference needed):
//   USD on ACH and wire: an account number at the sandbox bank and its ABA routing number (valid
//     check digit); SWIFT adds the bank's BIC and the correspondent bank;
//   EUR on SEPA: an IBAN (valid mod-97 check digits) and the BIC; SWIFT: the same BIC;
//   crypto: a wallet address valid for the chain (domain/shared/chain/sandboxWallets.ts).
// Account numbers, IBANs and the beneficiary (the customer) are personal data: sensitive, sealed in
// the events with the customer's key. Pure: the random bytes are drawn by the caller.
import { composeIBAN } from 'ibantools'
import { z } from 'zod'
import { sensitive } from '../shared/sensitive/index.js'
import type { FixedRouteFiatCurrency } from './routeConfig.js'

/** The sandbox banks deposits arrive at, by currency (coordinates that pass their check digits). */
export const SANDBOX_RECEIVING_BANKS = {
  USD: {
    bankName: 'Sandbox Bank, N.A.',
    bankAddress: '1 Sandbox Plaza, New York, NY 10001, US',
    bankCountryCode: 'US',
    routingNumber: '101019644',
    swiftBic: 'SBOXUS33XXX',
    accountNumberPrefix: '8',
  },
  EUR: {
    bankName: 'Sandbox Bank Europe AG',
    bankAddress: 'Sandboxstrasse 1, 10115 Berlin, DE',
    bankCountryCode: 'DE',
    bankCode: '37040044',
    swiftBic: 'SBOXDEFFXXX',
  },
} as const satisfies Record<FixedRouteFiatCurrency, object>

/** The correspondent a SWIFT deposit to the sandbox's US bank passes through, unless the route names its own. */
export const SANDBOX_CORRESPONDENT = {
  name: 'Sandbox Correspondent Bank',
  swiftCode: 'CHASUS33XXX',
  accountNumber: '400000000001',
} as const

export const bankCoordinatesSchema = z.object({
  bankName: z.string().max(200),
  bankAddress: z.string().max(200),
  bankCountryCode: z.string().length(2),
  accountNumber: sensitive(z.string().min(1).max(34)).nullable(),
  routingNumber: z.string().max(9).nullable(),
  iban: sensitive(z.string().min(1).max(34)).nullable(),
  swiftBic: z.string().max(11).nullable(),
  beneficiaryName: sensitive(z.string().min(1).max(200)),
  beneficiaryAddress: sensitive(z.string().min(1).max(300)).nullable(),
  /** The last four characters of the account number or IBAN: what account reads show. */
  last4: z.string().min(1).max(4),
})
export type BankCoordinates = z.infer<typeof bankCoordinatesSchema>

/** Random bytes a set of bank coordinates is drawn from. */
export const COORDINATE_RANDOM_BYTES = 16

/** `count` decimal digits from random bytes (each byte mod 10: a slight bias, harmless for test coordinates). */
function digits(random: Uint8Array, count: number): string {
  if (random.length < count) throw new RangeError(`${count} digits need ${count} random bytes`)
  let text = ''
  for (let i = 0; i < count; i++) text += String(random[i]! % 10)
  return text
}

export function bankCoordinates(input: {
  currency: FixedRouteFiatCurrency
  beneficiaryName: string
  beneficiaryAddress: string | null
  random: Uint8Array
}): BankCoordinates {
  const beneficiary = { beneficiaryName: input.beneficiaryName, beneficiaryAddress: input.beneficiaryAddress }
  if (input.currency === 'USD') {
    const bank = SANDBOX_RECEIVING_BANKS.USD
    const accountNumber = `${bank.accountNumberPrefix}${digits(input.random, 11)}`
    return {
      bankName: bank.bankName,
      bankAddress: bank.bankAddress,
      bankCountryCode: bank.bankCountryCode,
      accountNumber,
      routingNumber: bank.routingNumber,
      iban: null,
      swiftBic: bank.swiftBic,
      ...beneficiary,
      last4: accountNumber.slice(-4),
    }
  }
  const bank = SANDBOX_RECEIVING_BANKS.EUR
  const iban = composeIBAN({ countryCode: bank.bankCountryCode, bban: `${bank.bankCode}${digits(input.random, 10)}` })
  if (!iban) throw new Error('a sandbox IBAN could not be composed')
  return {
    bankName: bank.bankName,
    bankAddress: bank.bankAddress,
    bankCountryCode: bank.bankCountryCode,
    accountNumber: null,
    routingNumber: null,
    iban,
    swiftBic: bank.swiftBic,
    ...beneficiary,
    last4: iban.slice(-4),
  }
}
