// An account as the API shows it (GET /v1/accounts/{id}, list items, create answers): the fields
// every account has, then those of its kind, present only on that kind. Bank account numbers and
// IBANs are masked to their last four characters on every read; the full values stay sealed in the
// account's events for the rails.
import { z } from 'zod'
import { storedMetadataSchema } from '../shared/metadata.js'
import { ACCOUNT_KINDS, accountStatusSchema, accountTypeSchema } from './accountKinds.js'
import type { OpenAccountState } from './decider.js'

export const maskedNumber = (last4: string) => `****${last4}`

const kindFields = {
  walletAddress: z.string().optional().describe('Wallets: the on-chain address (EVM addresses in their EIP-55 checksummed form)'),
  addressType: z.string().optional().describe('Wallets: EVM, TRON, BITCOIN or SOLANA'),
  chains: z.array(z.string()).optional().describe('Wallets: the chains the address is used on'),
  currencies: z.array(z.string()).optional().describe('External wallets: the assets expected at the address'),
  walletType: z
    .enum(['TREASURY', 'CUSTOMER', 'DEPOSIT'])
    .optional()
    .describe("Internal wallets: TREASURY (the organization's own), CUSTOMER (a customer's balance) or DEPOSIT (a fixed route's)"),
  custodyType: z.string().optional().describe('External wallets: who holds the keys (SELF_HOSTED, or the custodian)'),
  isThirdParty: z.boolean().optional().describe('External accounts: true when the account belongs to someone other than the customer'),
  externalReference: z.string().nullable().optional().describe('External wallets: your own reference'),
  accountOwnerName: z.string().optional().describe('External bank accounts: the name on the account'),
  accountOwnerType: z.enum(['INDIVIDUAL', 'BUSINESS']).optional().describe('External bank accounts: the kind of owner'),
  bankName: z.string().nullable().optional().describe('External bank accounts: the bank'),
  bankCountry: z.string().optional().describe('External bank accounts: ISO 3166-1 alpha-2 country of the bank'),
  currency: z.string().optional().describe('Bank accounts (external, virtual): the currency the account is paid in'),
  accountType: z.enum(['CHECKING', 'SAVINGS']).nullable().optional().describe('External bank accounts (US): checking or savings'),
  accountNumber: z.string().nullable().optional().describe('External bank accounts: the account number, masked to its last 4 digits'),
  routingNumber: z.string().nullable().optional().describe('External bank accounts (US): the ABA routing number'),
  iban: z.string().nullable().optional().describe('External bank accounts: the IBAN, masked to its last 4 characters'),
  bic: z.string().nullable().optional().describe('External bank accounts: the BIC (SWIFT code)'),
}

export const accountResourceSchema = z
  .object({
    id: z.string().describe('Account id: acc_ (USD balance), inw_ (internal wallet), ewa_, eba_, vba_, vwa_'),
    type: accountTypeSchema,
    status: accountStatusSchema.describe('IN_REVIEW, ACTIVE or CLOSED (see docs/decisions.md for the transitions)'),
    customerId: z.string().nullable().describe("The owning customer; null for the organization's own accounts"),
    currencyCodes: z.array(z.string()).describe('Currencies the account holds or is paid in'),
    paymentRails: z.array(z.string()).describe('Rails money can move on to or from this account'),
    holdsBalance: z.boolean().describe('True for balance accounts (USD or stablecoin)'),
    balanceSourceEligible: z.boolean().describe('True when the balance can fund a transfer (narrower than holdsBalance)'),
    provider: z.string().describe('Who holds the account'),
    counterpartyId: z.string().nullable().describe('The counterparty (cp_) of an external account; null otherwise'),
    sweepTargetAccountId: z.string().nullable().describe('Virtual accounts: the account deposits sweep to; null otherwise'),
    metadata: storedMetadataSchema.describe('Your own data: nickname, purpose, tags[] and any other keys'),
    createdAt: z.string(),
    updatedAt: z.string(),
    closedAt: z.string().nullable().describe('When the account was closed; null while open'),
    ...kindFields,
  })
  .describe('An account')
export type AccountResource = z.infer<typeof accountResourceSchema>

function detailsOf(state: OpenAccountState): Partial<AccountResource> {
  const d = state.account.details
  switch (d.kind) {
    case 'USD_BALANCE':
      return {}
    case 'STABLECOIN_BALANCE':
      return { walletAddress: d.walletAddress, addressType: d.addressType, chains: [d.chain], walletType: d.walletType }
    case 'EXTERNAL_WALLET':
      return {
        walletAddress: d.walletAddress,
        addressType: d.addressType,
        chains: d.chains,
        currencies: d.currencies,
        custodyType: d.custodyType,
        isThirdParty: d.isThirdParty,
        externalReference: d.externalReference,
      }
    case 'EXTERNAL_BANK':
      return {
        accountOwnerName: d.accountOwnerName,
        accountOwnerType: d.accountOwnerType,
        bankName: d.bankName,
        bankCountry: d.bankCountry,
        currency: d.currency,
        accountType: d.accountType,
        accountNumber: d.accountNumber === null ? null : maskedNumber(d.last4),
        routingNumber: d.routingNumber,
        iban: d.iban === null ? null : maskedNumber(d.last4),
        bic: d.bic,
        isThirdParty: false,
      }
    case 'VIRTUAL_BANK': {
      const c = d.coordinates
      return {
        bankName: c.bankName,
        bankCountry: c.bankCountryCode,
        currency: d.route.sourceCurrency,
        accountNumber: c.accountNumber === null ? null : maskedNumber(c.last4),
        routingNumber: c.routingNumber,
        iban: c.iban === null ? null : maskedNumber(c.last4),
        bic: c.swiftBic,
        isThirdParty: false,
      }
    }
    case 'DEPOSIT_WALLET':
      return { walletAddress: d.walletAddress, addressType: d.addressType, chains: [d.chain], walletType: 'DEPOSIT', isThirdParty: false }
  }
}

/** The account a fixed route's source account sweeps to; null for every other account. */
export const sweepTargetOf = (state: OpenAccountState): string | null => {
  const d = state.account.details
  return d.kind === 'VIRTUAL_BANK' || d.kind === 'DEPOSIT_WALLET' ? d.route.sweepTargetAccountId : null
}

export function toAccountResource(state: OpenAccountState): AccountResource {
  const a = state.account
  return {
    id: a.accountId,
    type: ACCOUNT_KINDS[a.kind].type,
    status: state.status,
    customerId: a.customerId,
    currencyCodes: a.currencyCodes,
    paymentRails: a.paymentRails,
    holdsBalance: a.holdsBalance,
    balanceSourceEligible: a.balanceSourceEligible,
    provider: a.provider,
    counterpartyId: a.counterpartyId,
    sweepTargetAccountId: sweepTargetOf(state),
    metadata: state.metadata,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    closedAt: state.closedAt,
    ...detailsOf(state),
  }
}
