// A fixed route from a create request and the facts it names (pure: the command handler loads the
// customer, the sweep target and the refund account): the source (a fiat currency on its rails, or a
// crypto asset on one chain), the sweep target (an ACTIVE account of the customer, or a treasury
// wallet of the organization) with the destination currency and rail, checked as a transfer route
// would be for every source rail (domain/transfer/route.ts, capabilities.ts), the fee, the refund
// account, the sender banks, the minimum and the correspondent. Every refusal names its field.
import type { OpenAccountState } from '../account/decider.js'
import { DomainError, type ErrorDetail, invalid } from '../errors.js'
import { validateAbaRoutingNumber, validateBic } from '../shared/bank/index.js'
import type { Checked } from '../shared/checked.js'
import { CHAIN_TABLE, type Chain } from '../shared/chain/index.js'
import type { PaymentRail } from '../shared/paymentRails.js'
import { destinationAccountSide, sourceBalanceSide } from '../transfer/accountSides.js'
import { type SenderFacts, assertMaySend } from '../transfer/capabilities.js'
import { feePercentText } from '../transfer/pricing.js'
import { type RouteSide, assertRoute, deriveFlow, paymentRailOf } from '../transfer/route.js'
import {
  FIXED_ROUTE_SOURCE_RAILS,
  type FixedRouteConfig,
  type FixedRouteFiatCurrency,
  type SenderBank,
  isFixedRouteFiatCurrency,
  isMintable,
} from './routeConfig.js'

export type FixedRouteInput = {
  sourceCurrency: string
  sourceRails?: PaymentRail[] | undefined
  chain?: Chain | undefined
  sweepTargetAccountId: string
  destinationCurrency?: string | undefined
  destinationRail?: string | undefined
  developerFeeFixed?: string | undefined
  developerFeePercent?: number | undefined
  refundAccountId?: string | undefined
  allowedSenderBanks?: { bankName?: string | undefined; routingNumber?: string | undefined; swiftBic?: string | undefined }[] | undefined
  minimumAmount?: string | undefined
  correspondentBank?: { name: string; swiftCode: string; accountNumber: string } | undefined
  documentIds?: string[] | undefined
}

export type FixedRouteFacts = {
  customer: SenderFacts
  target: OpenAccountState
  refund: OpenAccountState | undefined
  /** The documents found by id (uploaded ones), with their owners. */
  documents: Readonly<Record<string, { organizationId: string; customerId: string | null }>>
  organizationId: string
}

/** The default rails of a fiat route: ACH and wire for USD, SEPA for EUR. */
const DEFAULT_RAILS: Record<FixedRouteFiatCurrency, PaymentRail[]> = { USD: ['ACH', 'WIRE'], EUR: ['SEPA'] }

/** A transfer-side refusal, its fields named as this request names them. */
function renamed(error: unknown, fields: Readonly<Record<string, string>>): unknown {
  if (!(error instanceof DomainError)) return error
  const details = error.details?.map((d) => ({ ...d, field: fields[d.field] ?? d.field }))
  return new DomainError(error.kind, error.code, error.message, details)
}

const TARGET_FIELDS = {
  'destination.accountId': 'sweepTargetAccountId',
  'destination.currency': 'destinationCurrency',
  'destination.paymentRail': 'destinationRail',
  sourceCustomerId: 'customerId',
}

function take<T>(checked: Checked<T>, problems: ErrorDetail[]): T | undefined {
  if (checked.ok) return checked.value
  problems.push(...checked.error.details)
  return undefined
}

function sourceSides(input: FixedRouteInput, problems: ErrorDetail[]): { rails: PaymentRail[]; chain: Chain | null; sides: RouteSide[] } {
  const currency = input.sourceCurrency
  if (isFixedRouteFiatCurrency(currency)) {
    if (input.chain !== undefined) problems.push({ field: 'chain', message: 'only a crypto route takes a chain', value: input.chain })
    const accepted: readonly string[] = FIXED_ROUTE_SOURCE_RAILS[currency]
    const rails: PaymentRail[] = [...new Set(input.sourceRails ?? DEFAULT_RAILS[currency])]
    if (rails.length === 0) problems.push({ field: 'sourceRails', message: `at least one of ${accepted.join(', ')}` })
    rails.forEach((rail, i) => {
      if (!accepted.includes(rail))
        problems.push({ field: `sourceRails.${i}`, message: `a ${currency} route takes ${accepted.join(', ')}`, value: rail })
    })
    const sides = rails
      .filter((r) => accepted.includes(r))
      .map((rail): RouteSide => ({ kind: 'FIAT_RAIL', rail: rail as PaymentRail, currency }))
    return { rails, chain: null, sides }
  }
  if (input.sourceRails !== undefined)
    problems.push({ field: 'sourceRails', message: 'a crypto route takes a chain, not rails', value: input.sourceRails })
  if (input.chain === undefined) {
    problems.push({ field: 'chain', message: `the chain ${currency} deposits arrive on` })
    return { rails: [], chain: null, sides: [] }
  }
  if (!(CHAIN_TABLE[input.chain].currencies as readonly string[]).includes(currency)) {
    problems.push({ field: 'sourceCurrency', message: `${input.chain} does not carry ${currency}`, value: currency })
    return { rails: [], chain: null, sides: [] }
  }
  return { rails: [], chain: input.chain, sides: [{ kind: 'CHAIN', chain: input.chain, currency }] }
}

function senderBanks(input: FixedRouteInput, crypto: boolean, problems: ErrorDetail[]): SenderBank[] {
  const banks = input.allowedSenderBanks ?? []
  if (crypto && banks.length > 0) problems.push({ field: 'allowedSenderBanks', message: 'only a fiat route restricts sender banks' })
  return banks.map((bank, i) => {
    const field = `allowedSenderBanks.${i}`
    if (bank.bankName === undefined && bank.routingNumber === undefined && bank.swiftBic === undefined)
      problems.push({ field, message: 'name the bank: bankName, routingNumber or swiftBic' })
    const routing =
      bank.routingNumber === undefined ? undefined : take(validateAbaRoutingNumber(bank.routingNumber, `${field}.routingNumber`), problems)
    const bic = bank.swiftBic === undefined ? undefined : take(validateBic(bank.swiftBic, `${field}.swiftBic`), problems)
    return { bankName: bank.bankName?.trim() ?? null, routingNumber: routing ?? null, swiftBic: bic?.bic ?? null }
  })
}

/** A treasury wallet of the organization: the one target outside the customer's own accounts. */
const isTreasuryWallet = (account: OpenAccountState) =>
  account.account.details.kind === 'STABLECOIN_BALANCE' && account.account.details.walletType === 'TREASURY'

export function planFixedRoute(input: FixedRouteInput, facts: FixedRouteFacts): FixedRouteConfig {
  const problems: ErrorDetail[] = []
  const crypto = !isFixedRouteFiatCurrency(input.sourceCurrency)
  const source = sourceSides(input, problems)
  const banks = senderBanks(input, crypto, problems)
  const correspondent = input.correspondentBank
  if (correspondent !== undefined) {
    if (!source.rails.includes('SWIFT'))
      problems.push({ field: 'correspondentBank', message: 'only a route taking SWIFT has a correspondent' })
    take(validateBic(correspondent.swiftCode, 'correspondentBank.swiftCode'), problems)
  }
  const fixed = BigInt(input.developerFeeFixed ?? '0')
  const percent = feePercentText(input.developerFeePercent)
  const minimum = input.minimumAmount === undefined ? null : BigInt(input.minimumAmount)
  if (minimum !== null && minimum <= 0n)
    problems.push({ field: 'minimumAmount', message: 'must be > 0 minor units', value: input.minimumAmount })
  ;(input.documentIds ?? []).forEach((id, i) => {
    const doc = facts.documents[id]
    if (!doc || doc.organizationId !== facts.organizationId || (doc.customerId !== null && doc.customerId !== facts.customer.customerId))
      problems.push({ field: `documentIds.${i}`, message: "must be an uploaded document (doc_) of the customer's", value: id })
  })
  const target = facts.target
  if (target.account.customerId !== facts.customer.customerId && !isTreasuryWallet(target))
    problems.push({
      field: 'sweepTargetAccountId',
      message: "must be one of the customer's accounts, or a treasury wallet of the organization",
      value: input.sweepTargetAccountId,
    })
  if (problems.length > 0) throw invalid('invalid_fixed_route', 'The fixed route cannot be created as asked', problems)
  try {
    const destination = destinationAccountSide(target, { currency: input.destinationCurrency, paymentRail: input.destinationRail })
    if (facts.refund) sourceBalanceSide(facts.refund, facts.customer.customerId, { currency: input.sourceCurrency })
    for (const side of source.sides) {
      assertRoute(side, destination)
      assertMaySend(facts.customer, side, destination)
    }
    const chainOfTarget = target.account.details.kind === 'STABLECOIN_BALANCE' ? target.account.details.chain : null
    return {
      type: deriveFlow(source.sides[0]!, destination),
      sourceCurrency: input.sourceCurrency,
      sourceRails: source.rails,
      chain: source.chain,
      sweepTargetAccountId: target.account.accountId,
      destinationCurrency: destination.currency,
      destinationRail: paymentRailOf(destination),
      developerFeeFixedMinor: fixed.toString(),
      developerFeePercent: percent,
      refundAccountId: facts.refund?.account.accountId ?? null,
      allowedSenderBanks: banks,
      minimumAmountMinor: minimum?.toString() ?? null,
      correspondentBank: correspondent ?? null,
      documentIds: [...new Set(input.documentIds ?? [])],
      mintOnDelivery: isTreasuryWallet(target) && isMintable(chainOfTarget, destination.currency),
    }
  } catch (error) {
    throw renamed(error, { ...TARGET_FIELDS, 'source.accountId': 'refundAccountId', 'source.currency': 'refundAccountId' })
  }
}
