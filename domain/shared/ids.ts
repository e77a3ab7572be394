// Resource ids: `prefix_` + 10 characters of millisecond time + 16 random characters (Crockford
// base32), so ids sort by creation time and serve as pagination cursors. Each prefix has its own
// id type (`CustomerId` is `cus_...`), so the compiler refuses an endpoint id where a customer's goes.
import { secureRandomBytes } from '../secureRandom.js'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

export const ID_PREFIXES = {
  organization: 'org',
  apiKey: 'key',
  webhookEndpoint: 'ep',
  customer: 'cus',
  transfer: 'tfr',
  document: 'doc',
  associatedPerson: 'asp',
  verificationSession: 'vsess',
  termsAgreement: 'tos',
  termsAcceptance: 'tosa',
  counterparty: 'cp',
  matchKey: 'mk',
  request: 'req',
  // Accounts, one prefix per kind (spec: Account); `acc_` is a USD balance account here.
  account: 'acc',
  virtualBankAccount: 'vba',
  internalWallet: 'inw',
  externalWallet: 'ewa',
  externalBankAccount: 'eba',
  virtualWallet: 'vwa',
  hold: 'hld',
  liquidityFacility: 'lqf',
  draw: 'drw',
  repayment: 'rpy',
  transferLeg: 'tleg',
  fxSettings: 'fxs',
  fxQuote: 'fxq',
  fxTradeSlots: 'fxts',
  agent: 'agt',
  agentKey: 'agk',
  transferDraft: 'tdraft',
  transferDraftApproval: 'tda',
  invoice: 'inv',
} as const

export type IdPrefix = (typeof ID_PREFIXES)[keyof typeof ID_PREFIXES]

/** An id of one prefix: a string the compiler tells apart from other prefixes' ids. */
export type Id<P extends IdPrefix> = `${P}_${string}`

export type OrganizationId = Id<'org'>
export type ApiKeyId = Id<'key'>
export type WebhookEndpointId = Id<'ep'>
export type CustomerId = Id<'cus'>
export type TransferId = Id<'tfr'>
export type DocumentId = Id<'doc'>
export type AssociatedPersonId = Id<'asp'>
export type VerificationSessionId = Id<'vsess'>
export type TermsAgreementId = Id<'tos'>
export type TermsAcceptanceId = Id<'tosa'>
export type CounterpartyId = Id<'cp'>
export type RequestId = Id<'req'>
export type AccountId = Id<'acc' | 'vba' | 'inw' | 'ewa' | 'eba' | 'vwa'>
export type HoldId = Id<'hld'>
export type LiquidityFacilityId = Id<'lqf'>
export type DrawId = Id<'drw'>
export type RepaymentId = Id<'rpy'>
export type TransferLegId = Id<'tleg'>
export type FxSettingsId = Id<'fxs'>
export type FxQuoteId = Id<'fxq'>
export type AgentId = Id<'agt'>
export type AgentKeyId = Id<'agk'>
export type TransferDraftId = Id<'tdraft'>
export type TransferDraftApprovalId = Id<'tda'>
export type InvoiceId = Id<'inv'>

function encodeTime(ms: number): string {
  let out = ''
  let rest = ms
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32]! + out
    rest = Math.floor(rest / 32)
  }
  return out
}

function encodeRandom(length: number): string {
  const bytes = secureRandomBytes(length)
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 32]
  return out
}

export function newId<P extends IdPrefix>(prefix: P, nowMs: number = Date.now()): Id<P> {
  return `${prefix}_${encodeTime(nowMs)}${encodeRandom(16)}`
}
