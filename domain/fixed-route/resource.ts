// The spec's Fixed route resource, from its source account's state: the route's configuration, the
// source account with its dedicated deposit instructions (in full: the customer gives them to its
// payers), and the sweep target account expanded (masked, as every account read shows it). What a
// command answers, GET shows and the read model stores (the target is joined at read time).
import { z } from 'zod'
import type { OpenAccountState } from '../account/decider.js'
import type { AccountResource } from '../account/resource.js'
import { storedMetadataSchema } from '../shared/metadata.js'
import { moneyWire, toWire } from '../shared/money/index.js'
import { transferFlowSchema } from '../transfer/route.js'
import { SANDBOX_CORRESPONDENT } from './depositCoordinates.js'
import type { FixedRouteConfig } from './routeConfig.js'

export const FIXED_ROUTE_STATUSES = ['ACTIVE', 'DISABLED', 'CLOSED'] as const
export type FixedRouteStatus = (typeof FIXED_ROUTE_STATUSES)[number]

const nullableString = z.string().nullable()

export const depositInstructionsWire = z
  .object({
    accountNumber: nullableString.describe('ACH, wire and SWIFT: the dedicated account number (in full)'),
    bankName: z.string().describe('The receiving bank'),
    bankAddress: z.string().describe('The receiving bank’s address'),
    routingNumber: nullableString.describe('ACH and wire: the ABA routing number'),
    iban: nullableString.describe('SEPA: the dedicated IBAN (in full)'),
    swiftBic: nullableString.describe('SWIFT and SEPA: the receiving bank’s BIC'),
    bankCountryCode: z.string().describe('ISO 3166-1 alpha-2 country of the receiving bank'),
    reference: nullableString.describe('Always null: the coordinates are dedicated (depositMatching DEDICATED), no reference is needed'),
    depositMessage: z.string().describe('What to tell payers'),
    beneficiaryName: z.string().describe('The account holder: the customer'),
    beneficiaryAddress: nullableString.describe('The account holder’s address; null (not copied from the customer)'),
  })
  .describe('Where payers send fiat deposits (null on a crypto route: send to sourceAccount.walletAddress)')

export const sweepTargetAccountWire = z
  .object({
    id: z.string().describe('The target account id'),
    type: z.string().describe('The target account type (INFINITE_BANK, INFINITE_WALLET, EXTERNAL_BANK, EXTERNAL_WALLET)'),
    isThirdParty: z.boolean().describe('True when the target belongs to someone other than the customer'),
    metadata: storedMetadataSchema.describe('The target account’s metadata'),
    walletAddress: nullableString.describe('Wallets: the address'),
    addressType: nullableString.describe('Wallets: EVM, TRON, BITCOIN or SOLANA'),
    chains: z.array(z.string()).nullable().describe('Wallets: the chains'),
    accountNumber: nullableString.describe('Masked: the last four digits only'),
    routingNumber: nullableString.describe('US bank accounts: the ABA routing number'),
    bankName: nullableString.describe('Bank accounts: the bank'),
  })
  .describe('The sweep target account, expanded')

const senderBankWire = z.object({
  bankName: nullableString.describe('Matched case-insensitively when set'),
  routingNumber: nullableString.describe('An ABA routing number, matched exactly when set'),
  swiftBic: nullableString.describe('A BIC, matched by its first 8 characters when set'),
})

export const fixedRouteResourceSchema = z
  .object({
    id: z.string().describe('The source account id: vba_ (fiat) or inw_ (crypto)'),
    customerId: z.string().describe('The customer (cus_) who owns the route'),
    type: transferFlowSchema.describe('The flow of its sweeps, for example FIAT_TO_CRYPTO'),
    status: z.enum(FIXED_ROUTE_STATUSES).describe('ACTIVE (sweeping), DISABLED (deposits refused) or CLOSED (its account closed)'),
    enabled: z.boolean().describe('True while the route sweeps deposits (status ACTIVE)'),
    sourceAccount: z
      .object({
        id: z.string().describe('The source account id: the route id'),
        type: z.string().describe('VIRTUAL_BANK or VIRTUAL_WALLET'),
        metadata: storedMetadataSchema.describe('The route’s metadata (the source account’s)'),
        depositInstructions: depositInstructionsWire.nullable(),
        sourceCurrency: z.string().describe('What deposits arrive in'),
        sourceRail: z.string().describe('The rail a deposit is taken on by default (ACH when the route takes ACH and wire), or the chain'),
        sourceRails: z.array(z.string()).describe('Fiat routes: the rails deposits may arrive on; empty on a crypto route'),
        walletAddress: nullableString.describe('Crypto routes: the dedicated deposit address, valid on the chain'),
        addressType: nullableString.describe('Crypto routes: EVM, TRON, BITCOIN or SOLANA'),
        chains: z.array(z.string()).describe('Crypto routes: the chain deposits arrive on; empty on a fiat route'),
        walletType: nullableString.describe('Crypto routes: DEPOSIT (a fixed route’s deposit wallet); null on fiat routes'),
      })
      .describe('The account deposits arrive at, with its deposit instructions'),
    sweepTargetAccountId: z.string().describe('The account every deposit sweeps to'),
    sweepTargetAccount: sweepTargetAccountWire.nullable().describe('The target expanded; null only if it can no longer be read'),
    sharesBalanceAccountCoordinates: z.boolean().describe('Always false: a fixed route has its own dedicated coordinates'),
    depositMatching: z.enum(['DEDICATED']).describe('DEDICATED: every deposit to the coordinates is the route’s'),
    destinationCurrency: z.string().describe('What the sweep delivers'),
    destinationRail: z.string().describe('BALANCE for a balance account, the payout rail or chain otherwise'),
    developerFeeFixed: z.string().describe('Minor units of the source currency, withheld from every sweep'),
    developerFeePercent: z.number().describe('A fraction of each deposit (0.01 is 1%), withheld from every sweep'),
    refundAccountId: nullableString.describe('A balance account of the customer’s where returned sweeps go'),
    correspondentBank: z
      .object({
        name: z.string().describe('The correspondent bank'),
        swiftCode: z.string().describe('Its BIC'),
        accountNumber: z.string().describe('The receiving bank’s account at the correspondent'),
      })
      .nullable()
      .describe('SWIFT deposits: the correspondent bank they pass through; null on routes without SWIFT'),
    allowedSenderBanks: z.array(senderBankWire).describe('When not empty, deposits without sender-bank data are held (fail closed)'),
    documentIds: z.array(z.string()).describe('Documents (doc_) supporting the route'),
    minimumAmount: moneyWire.nullable().describe('Deposits below it are held, not swept'),
    mintsOnDelivery: z.boolean().describe('Sandbox: each sweep also mints the token into the treasury wallet (USDT or USAT on Ethereum)'),
    metadata: storedMetadataSchema.describe('Your own data: nickname, purpose, tags[] and any other keys'),
    createdAt: z.string().describe('When the route was created'),
    updatedAt: z.string().describe('When it last changed'),
  })
  .describe('A fixed route: deposit coordinates that sweep every deposit to a target account')
export type FixedRouteResource = z.infer<typeof fixedRouteResourceSchema>

export type FixedRouteAccount = OpenAccountState & {
  account: { details: Extract<OpenAccountState['account']['details'], { kind: 'VIRTUAL_BANK' | 'DEPOSIT_WALLET' }> }
}

export const routeOf = (state: FixedRouteAccount): FixedRouteConfig => state.account.details.route

export function fixedRouteStatus(state: OpenAccountState): FixedRouteStatus {
  if (state.status === 'CLOSED') return 'CLOSED'
  return state.routeEnabled ? 'ACTIVE' : 'DISABLED'
}

export function expandedTarget(target: AccountResource | undefined): z.infer<typeof sweepTargetAccountWire> | null {
  if (!target) return null
  return {
    id: target.id,
    type: target.type,
    isThirdParty: target.isThirdParty ?? false,
    metadata: target.metadata,
    walletAddress: target.walletAddress ?? null,
    addressType: target.addressType ?? null,
    chains: target.chains ?? null,
    accountNumber: target.accountNumber ?? null,
    routingNumber: target.routingNumber ?? null,
    bankName: target.bankName ?? null,
  }
}

function sourceAccountOf(state: FixedRouteAccount): FixedRouteResource['sourceAccount'] {
  const d = state.account.details
  const route = d.route
  const base = {
    id: state.account.accountId,
    type: state.account.type,
    metadata: state.metadata,
    sourceCurrency: route.sourceCurrency,
    sourceRails: route.sourceRails,
  }
  if (d.kind === 'DEPOSIT_WALLET')
    return {
      ...base,
      depositInstructions: null,
      sourceRail: d.chain,
      walletAddress: d.walletAddress,
      addressType: d.addressType,
      chains: [d.chain],
      walletType: 'DEPOSIT',
    }
  const c = d.coordinates
  return {
    ...base,
    depositInstructions: {
      accountNumber: c.accountNumber,
      bankName: c.bankName,
      bankAddress: c.bankAddress,
      routingNumber: c.routingNumber,
      iban: c.iban,
      swiftBic: c.swiftBic,
      bankCountryCode: c.bankCountryCode,
      reference: null,
      depositMessage: `Deposits to these coordinates are credited to ${route.sweepTargetAccountId} automatically; no reference is needed.`,
      beneficiaryName: c.beneficiaryName,
      beneficiaryAddress: c.beneficiaryAddress,
    },
    sourceRail: route.sourceRails.includes('ACH') ? 'ACH' : route.sourceRails[0]!,
    walletAddress: null,
    addressType: null,
    chains: [],
    walletType: null,
  }
}

/** The route without its expanded target (the read model stores this; reads add the target). */
export function toFixedRouteResource(state: FixedRouteAccount, target: AccountResource | undefined): FixedRouteResource {
  const route = routeOf(state)
  const status = fixedRouteStatus(state)
  return {
    id: state.account.accountId,
    customerId: state.account.customerId ?? '',
    type: route.type,
    status,
    enabled: status === 'ACTIVE',
    sourceAccount: sourceAccountOf(state),
    sweepTargetAccountId: route.sweepTargetAccountId,
    sweepTargetAccount: expandedTarget(target),
    sharesBalanceAccountCoordinates: false,
    depositMatching: 'DEDICATED',
    destinationCurrency: route.destinationCurrency,
    destinationRail: route.destinationRail,
    developerFeeFixed: route.developerFeeFixedMinor,
    developerFeePercent: route.developerFeePercent === null ? 0 : Number(route.developerFeePercent),
    refundAccountId: route.refundAccountId,
    correspondentBank: route.correspondentBank ?? (route.sourceRails.includes('SWIFT') ? { ...SANDBOX_CORRESPONDENT } : null),
    allowedSenderBanks: route.allowedSenderBanks,
    documentIds: route.documentIds,
    minimumAmount:
      route.minimumAmountMinor === null ? null : toWire({ currency: route.sourceCurrency, amountMinor: BigInt(route.minimumAmountMinor) }),
    mintsOnDelivery: route.mintOnDelivery,
    metadata: state.metadata,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  }
}

/** The account state as a fixed route, when it is one. */
export function asFixedRoute(state: OpenAccountState): FixedRouteAccount | undefined {
  return isFixedRouteAccount(state) ? state : undefined
}

const isFixedRouteAccount = (state: OpenAccountState): state is FixedRouteAccount =>
  state.account.details.kind === 'VIRTUAL_BANK' || state.account.details.kind === 'DEPOSIT_WALLET'
