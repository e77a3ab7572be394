// What a fixed route is configured to do, as its source account's AccountOpened records it: the
// money it accepts (a fiat currency on its rails, or a crypto asset on a chain), the account every
// deposit sweeps to and how (destination currency and rail), the developer fee withheld on each
// sweep, the refund account, the sender banks it accepts deposits from (fail closed when listed),
// the minimum deposit, the correspondent bank of SWIFT deposits, documents and whether the sandbox
// mints the swept token (a treasury wallet receiving USDT or USAT on Ethereum).
import { z } from 'zod'
import { chainSchema } from '../shared/chain/index.js'
import { paymentRailSchema } from '../shared/paymentRails.js'
import { transferFlowSchema } from '../transfer/route.js'
import { FIXED_ROUTE_LIMITS as L } from './limits.js'

const id = z.string().min(1).max(L.idMaxLength)
const code = z.string().min(1).max(40)
const minor = z.string().regex(/^\d{1,31}$/)
const name = z.string().min(1).max(L.nameMaxLength)

/** Fiat rails a fixed route can take deposits on, by source currency. */
export const FIXED_ROUTE_SOURCE_RAILS = {
  USD: ['ACH', 'WIRE', 'SWIFT'],
  EUR: ['SEPA', 'SWIFT'],
} as const satisfies Record<string, readonly string[]>
export type FixedRouteFiatCurrency = keyof typeof FIXED_ROUTE_SOURCE_RAILS
export const FIXED_ROUTE_FIAT_CURRENCIES = Object.keys(FIXED_ROUTE_SOURCE_RAILS) as FixedRouteFiatCurrency[]

/** A fiat route's currency (a virtual bank account); any other source currency is a crypto route's. */
export const isFixedRouteFiatCurrency = (currency: string): currency is FixedRouteFiatCurrency =>
  (FIXED_ROUTE_FIAT_CURRENCIES as string[]).includes(currency)

/** A bank a route accepts deposits from: every field it names must match the sending bank's. */
export const senderBankSchema = z.object({
  bankName: name.nullable(),
  routingNumber: z.string().min(1).max(34).nullable(),
  swiftBic: z.string().min(1).max(11).nullable(),
})
export type SenderBank = z.infer<typeof senderBankSchema>

export const correspondentBankSchema = z.object({
  name,
  swiftCode: z.string().min(8).max(11),
  accountNumber: z.string().min(1).max(34),
})

export const fixedRouteConfigSchema = z.object({
  /** The flow of its sweeps (spec: type, for example FIAT_TO_CRYPTO). */
  type: transferFlowSchema,
  sourceCurrency: code,
  /** Fiat routes: the rails deposits arrive on; empty for crypto. */
  sourceRails: z.array(paymentRailSchema).max(L.maxSourceRails),
  /** Crypto routes: the chain deposits arrive on; null for fiat. */
  chain: chainSchema.nullable(),
  sweepTargetAccountId: id,
  destinationCurrency: code,
  /** BALANCE for a balance account, a fiat rail for a bank account, a chain for a wallet. */
  destinationRail: code,
  developerFeeFixedMinor: minor,
  /** The percent fee as decimal text (a fraction: "0.015" is 1.5%), null when none. */
  developerFeePercent: z.string().max(20).nullable(),
  refundAccountId: id.nullable(),
  allowedSenderBanks: z.array(senderBankSchema).max(L.maxAllowedSenderBanks),
  minimumAmountMinor: minor.nullable(),
  correspondentBank: correspondentBankSchema.nullable(),
  documentIds: z.array(id).max(L.maxDocumentIds),
  /** The sweep target is a treasury wallet and the asset a mintable sandbox token (USDT or USAT on Ethereum). */
  mintOnDelivery: z.boolean(),
})
export type FixedRouteConfig = z.infer<typeof fixedRouteConfigSchema>

/** Tokens the sandbox mints into a treasury wallet when a sweep delivers them, by chain. */
export const MINTABLE_SANDBOX_TOKENS: Readonly<Partial<Record<z.infer<typeof chainSchema>, readonly string[]>>> = {
  ETHEREUM: ['USDT', 'USAT'],
}

export const isMintable = (chain: string | null, currency: string): boolean =>
  chain !== null && (MINTABLE_SANDBOX_TOKENS[chain as keyof typeof MINTABLE_SANDBOX_TOKENS] ?? []).includes(currency)
