// The key under which an upsert finds an existing counterparty instead of creating another: a
// customer's own (first-party) counterparty is one per customer whatever its name; a third-party
// one is the same customer, beneficiary type, name (case, width and spacing aside) and the same
// address country and postal code (case and spacing aside). Street lines are left out on purpose:
// they are written in too many ways to compare, and they are sealed.
import { type MatchKeyId, matchKeyId } from '../match-claim/matchKey.js'
import type { Address } from '../shared/address.js'
import type { BeneficiaryType } from './enums.js'

export type MatchKeyInput = { organizationId: string; customerId: string } & (
  | { isThirdParty: false }
  | { isThirdParty: true; beneficiaryType: BeneficiaryType; name: string; address: Pick<Address, 'country' | 'postalCode'> }
)

/** NFKC (full-width letters as ASCII), lower case, runs of white space as one space, trimmed. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim()
}

/** NFKC, upper case, without spaces or hyphens: `sw1a 1aa` and `SW1A-1AA` are one code. */
export function normalizePostalCode(postalCode: string): string {
  return postalCode
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s-]+/gu, '')
}

export function counterpartyMatchKey(input: MatchKeyInput): MatchKeyId {
  const parts = input.isThirdParty
    ? [
        'third_party',
        input.organizationId,
        input.customerId,
        input.beneficiaryType,
        normalizeName(input.name),
        input.address.country.toUpperCase(),
        normalizePostalCode(input.address.postalCode),
      ]
    : ['self', input.organizationId, input.customerId]
  return matchKeyId('counterparty', parts)
}
