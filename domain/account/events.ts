// Events of an account, version 1. One stream per account: its opening (with the details of its
// kind), review, closing, and (for balance accounts) the funds events of domain/balance-account,
// each carrying its ledger transaction. Bank account numbers and IBANs are sensitive: sealed at
// rest with the customer's data key (the descriptor's `dataSubject: 'customer'`), so erasing the
// customer shreds them too; reads show only their last four characters (resource.ts).
import { z } from 'zod'
import { fundsEventSchemas } from '../balance-account/fundsEvents.js'
import { sensitive } from '../shared/sensitive/index.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { addressTypeSchema, chainSchema, custodyTypeSchema } from '../shared/chain/index.js'
import { paymentRailSchema } from '../shared/paymentRails.js'
import { isKnownCurrency } from '../shared/money/index.js'
import { bankCoordinatesSchema } from '../fixed-route/depositCoordinates.js'
import { fixedRouteConfigSchema, senderBankSchema } from '../fixed-route/routeConfig.js'
import { originatorSchema } from '../transfer/events.js'
import { ACCOUNT_KINDS, accountCloseReasonSchema, accountTypeSchema } from './accountKinds.js'

export const ACCOUNT_EVENT_LIMITS = {
  maxCodes: 20,
  maxRails: 100,
  codeMaxLength: 40,
  nameMaxLength: 200,
  addressMaxLength: 120,
  referenceMaxLength: 200,
} as const
const L = ACCOUNT_EVENT_LIMITS

const code = z.string().min(1).max(L.codeMaxLength)
const name = z.string().min(1).max(L.nameMaxLength)
/** Any currency the money table knows (the list filter's enum is narrower: an external GBP account is possible). */
const currencyCode = z.string().max(L.codeMaxLength).refine(isKnownCurrency, 'a known currency code')

/** The part of an account its kind decides. */
export const accountDetailsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('USD_BALANCE') }),
  z.object({
    kind: z.literal('STABLECOIN_BALANCE'),
    chain: chainSchema,
    addressType: addressTypeSchema,
    walletAddress: z.string().min(1).max(L.addressMaxLength),
    /** TREASURY: the organization's own wallet (no customer); CUSTOMER: a customer's. */
    walletType: z.enum(['TREASURY', 'CUSTOMER']),
  }),
  z.object({
    kind: z.literal('EXTERNAL_BANK'),
    accountOwnerName: name,
    accountOwnerType: z.enum(['INDIVIDUAL', 'BUSINESS']),
    bankName: name.nullable(),
    bankCountry: z.string().length(2),
    currency: currencyCode,
    accountType: z.enum(['CHECKING', 'SAVINGS']).nullable(),
    accountNumber: sensitive(z.string().min(1).max(34)).nullable(),
    routingNumber: z.string().min(1).max(34).nullable(),
    iban: sensitive(z.string().min(1).max(34)).nullable(),
    bic: z.string().min(8).max(11).nullable(),
    /** The last four characters of the account number or IBAN: what reads show. */
    last4: z.string().min(1).max(4),
  }),
  z.object({
    kind: z.literal('EXTERNAL_WALLET'),
    walletAddress: z.string().min(1).max(L.addressMaxLength),
    addressType: addressTypeSchema,
    chains: z.array(chainSchema).min(1).max(L.maxCodes),
    currencies: z.array(currencyCode).min(1).max(L.maxCodes),
    custodyType: custodyTypeSchema,
    isThirdParty: z.boolean(),
    externalReference: z.string().min(1).max(L.referenceMaxLength).nullable(),
  }),
  /** A fixed route's virtual bank account: its dedicated deposit coordinates and the route. */
  z.object({ kind: z.literal('VIRTUAL_BANK'), route: fixedRouteConfigSchema, coordinates: bankCoordinatesSchema }),
  /** A fixed route's deposit wallet: its dedicated address on the route's chain, and the route. */
  z.object({
    kind: z.literal('DEPOSIT_WALLET'),
    route: fixedRouteConfigSchema,
    chain: chainSchema,
    addressType: addressTypeSchema,
    walletAddress: z.string().min(1).max(L.addressMaxLength),
  }),
])
export type AccountDetails = z.infer<typeof accountDetailsSchema>

const kindOf = z.enum(Object.keys(ACCOUNT_KINDS) as [keyof typeof ACCOUNT_KINDS, ...(keyof typeof ACCOUNT_KINDS)[]])

export const AccountOpened = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  /** Null for the organization's own accounts (its treasury wallets). */
  customerId: z.string().nullable(),
  kind: kindOf,
  type: accountTypeSchema,
  status: z.enum(['IN_REVIEW', 'ACTIVE']),
  currencyCodes: z.array(currencyCode).min(1).max(L.maxCodes),
  paymentRails: z.array(paymentRailSchema).max(L.maxRails),
  holdsBalance: z.boolean(),
  balanceSourceEligible: z.boolean(),
  provider: code,
  counterpartyId: z.string().nullable(),
  metadata: storedMetadataSchema,
  details: accountDetailsSchema,
  at: z.string(),
})

export const AccountActivated = z.object({ accountId: z.string(), organizationId: z.string(), at: z.string() })

export const AccountClosed = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  reason: accountCloseReasonSchema,
  at: z.string(),
})

export const AccountMetadataUpdated = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  metadata: storedMetadataSchema,
  at: z.string(),
})

/** A fixed route stops sweeping: deposits are refused until it is enabled again. */
export const FixedRouteDisabled = z.object({ accountId: z.string(), organizationId: z.string(), at: z.string() })
export const FixedRouteEnabled = z.object({ accountId: z.string(), organizationId: z.string(), at: z.string() })

/**
 * A deposit arrived at a fixed route (its source account): recorded once per reference and amount,
 * with the rail, the remitter and why it is held (if it is), and the sweep transfer it opens. The
 * remitter is personal data, sealed with the customer's key (`customerId`).
 */
export const FixedRouteDepositReceived = z.object({
  accountId: z.string(),
  organizationId: z.string(),
  customerId: z.string(),
  reference: z.string().min(1).max(L.referenceMaxLength),
  /** What the payer wrote in the payment's reference field (an invoice's INV-... reference), apart from the deposit's own id. */
  paymentReference: z.string().min(1).max(L.referenceMaxLength).nullable().optional(),
  amount: z.object({ currency: currencyCode, amountMinor: z.string().regex(/^\d{1,31}$/) }),
  rail: code,
  originator: originatorSchema.nullable(),
  senderBank: senderBankSchema.nullable(),
  hold: z.object({ code, reason: z.string().max(500) }).nullable(),
  transferId: z.string().min(1).max(64),
  at: z.string(),
})

export const accountEventSchemas = {
  AccountOpened,
  AccountActivated,
  AccountClosed,
  AccountMetadataUpdated,
  FixedRouteDisabled,
  FixedRouteEnabled,
  FixedRouteDepositReceived,
  ...fundsEventSchemas,
} as const

type Schemas = typeof accountEventSchemas
export type AccountEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
