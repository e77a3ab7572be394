// A transfer's creation rules as one pure function: from a create request, the facts read from
// other streams and the randomness drawn beforehand, the TransferCreated data (the sender, the two
// sides, the route checked, the capabilities, the price, the legs, the deposit instructions, the
// rail's schedule, the sandbox trigger), or the 422 that refuses it. Same input, same plan: the
// decider runs it, so a retried or batched command plans again to the same event.
import type { OpenAccountState } from '../account/decider.js'
import { availableIn } from '../balance-account/funds.js'
import type { Counterparty } from '../counterparty/decider.js'
import type { Customer } from '../customer/state.js'
import type { FxQuote } from '../fx-quote/decider.js'
import { assertInvariant, invalid } from '../errors.js'
import { sandboxTrigger, swiftRouting } from '../rails/index.js'
import { addressTypeOf, sandboxWalletAddress, validateWalletAddress } from '../shared/chain/index.js'
import type { Environment } from '../shared/environment.js'
import { type AmountField, assertAmountsWithinBound, formatDecimal, requireExponent } from '../shared/money/index.js'
import { destinationAccountSide, externalSourceSide, sourceBalanceSide } from './accountSides.js'
import { assertMaySend, senderFactsOf } from './capabilities.js'
import type { CreateTransferBody } from './createTransferBody.js'
import { depositInstructionsFor } from './depositInstructions.js'
import type { TransferCreatedData } from './events.js'
import { feePercentText, price } from './pricing.js'
import { quotedPricing } from './quotedPricing.js'
import { type RouteSide, assertRoute, deriveFlow, paymentRailOf, planLegs } from './route.js'
import { scheduleOf } from './schedule.js'
import { assertSourceExternalAccount } from './sourceExternalAccount.js'

export type NewTransfer = Omit<TransferCreatedData, 'transferId' | 'organizationId' | 'at'>

/** The most legs a route plans (a deposit, two conversions through the bridge asset, a payout). */
export const MAX_TRANSFER_LEGS = 4

/** The BIC the sandbox sends SWIFT payments from. */
const SANDBOX_SENDER_BIC = 'CHASUS33XXX'

/**
 * What the plan reads from other streams, loaded by the command side before it decides: the
 * sender, and each account or counterparty the body names (the refund account unless `receivedDeposit`).
 */
export type TransferFacts = {
  sender: Customer
  sourceAccount?: OpenAccountState
  destinationAccount?: OpenAccountState
  refundAccount?: OpenAccountState
  sourceExternalAccount?: OpenAccountState
  counterparty?: Counterparty
  /** The firm FX quote `quoteId` names (domain/transfer/quotedPricing.ts), PENDING when loaded. */
  quote?: FxQuote
}

/** Randomness drawn before deciding: an id per possible leg, and the seed of a sandbox deposit address. */
export type PlanEntropy = { legIds: readonly string[]; depositAddressSeed: Uint8Array }

/**
 * `receivedDeposit`: the plan of money already received (a fixed route's sweep planned after its
 * deposit was recorded): the destination's status and the sender's standing do not refuse it; the
 * caller holds it for review when they would have.
 */
export type Planning = { receivedDeposit?: boolean }

export type TransferPlanInput = {
  body: CreateTransferBody
  facts: TransferFacts
  environment: Environment
  transferId: string
  now: Date
  entropy: PlanEntropy
  planning?: Planning
  /** The agent whose key creates it (agent transfers: commands/transfers/agentTransfers.ts). */
  agentId?: string | undefined
}

/**
 * The destination account the body names, checked before anything is loaded: one account (accountId
 * or externalAccountId, equal when both are given) and no toAddress beside it; undefined for a chain address.
 */
export function destinationAccountIdOf(body: CreateTransferBody): string | undefined {
  const d = body.destination
  if (d.accountId !== undefined && d.externalAccountId !== undefined && d.accountId !== d.externalAccountId)
    throw invalid('destination_ambiguous', 'Give destination.accountId or destination.externalAccountId, not two different accounts', [
      { field: 'destination.externalAccountId', message: 'must equal destination.accountId when both are given' },
    ])
  const accountId = d.accountId ?? d.externalAccountId
  if (accountId !== undefined && d.toAddress !== undefined)
    throw invalid('destination_ambiguous', 'Give a destination account or a toAddress, not both', [
      { field: 'destination.toAddress', message: 'omit it with an account' },
    ])
  return accountId
}

function destinationDetails(account: OpenAccountState | undefined) {
  const d = account?.account.details
  if (d?.kind === 'EXTERNAL_BANK')
    return { accountName: d.accountOwnerName, bankName: d.bankName, bankCountryCode: d.bankCountry, bic: d.bic }
  return { accountName: null, bankName: null, bankCountryCode: null, bic: null }
}

/** metadata.swiftRouting of a SWIFT payout: the sandbox's BIC to the beneficiary bank's. */
function routingOf(receiverBic: string | null, now: Date) {
  const routing = swiftRouting({ senderBic: SANDBOX_SENDER_BIC, receiverBic: receiverBic ?? SANDBOX_SENDER_BIC, now })
  if (!routing.ok) throw routing.error
  return routing.value
}

function amountOf(body: CreateTransferBody) {
  if ((body.sourceAmount === undefined) === (body.destinationAmount === undefined))
    throw invalid('amount_side_required', 'Give the amount on exactly one side: sourceAmount or destinationAmount', [
      {
        field: body.sourceAmount === undefined ? 'sourceAmount' : 'destinationAmount',
        message: 'exactly one of sourceAmount and destinationAmount',
      },
    ])
  return body.sourceAmount !== undefined
    ? { side: 'SOURCE' as const, minor: BigInt(body.sourceAmount) }
    : { side: 'DESTINATION' as const, minor: BigInt(body.destinationAmount!) }
}

/** The body's money fields in their currencies, known once the sides are: each is checked against its currency's bound. */
function amountFields(body: CreateTransferBody, sourceCurrency: string, destinationCurrency: string): AmountField[] {
  const fields: [string, string | undefined, string][] = [
    ['sourceAmount', body.sourceAmount, sourceCurrency],
    ['destinationAmount', body.destinationAmount, destinationCurrency],
    ['developerFeeFixed', body.developerFeeFixed, sourceCurrency],
  ]
  return fields.flatMap(([field, text, currency]) =>
    text === undefined ? [] : [{ field, money: { currency, amountMinor: BigInt(text) } }],
  )
}

/** The destination side: the named account's, or a chain address checked for the environment. */
function destinationOf(input: TransferPlanInput) {
  const { body, facts, environment } = input
  const d = body.destination
  const account = facts.destinationAccount
  if (account) {
    const side = destinationAccountSide(
      account,
      { currency: d.currency, paymentRail: d.paymentRail },
      { whateverItsStatus: input.planning?.receivedDeposit === true },
    )
    const details = account.account.details
    const toAddress = details.kind === 'EXTERNAL_WALLET' || details.kind === 'STABLECOIN_BALANCE' ? details.walletAddress : null
    return { side, account, toAddress }
  }
  if (d.toAddress === undefined || d.paymentRail === undefined || d.currency === undefined)
    throw invalid('destination_required', 'Name a destination: an account (destination.accountId) or a chain, currency and toAddress', [
      { field: 'destination', message: 'accountId, or paymentRail (a chain) + currency + toAddress' },
    ])
  const side = externalSourceSide(d.paymentRail, d.currency)
  if (side.kind !== 'CHAIN')
    throw invalid(
      'destination_required',
      'A fiat payout goes to an external bank account: create one and name it in destination.accountId',
      [{ field: 'destination.accountId', message: 'is required for a fiat payout' }],
    )
  const checked = validateWalletAddress(addressTypeOf(side.chain), d.toAddress, environment, 'destination.toAddress')
  if (!checked.ok) throw checked.error
  return { side, account: undefined, toAddress: checked.value }
}

/** The counterparty the destination belongs to: the body's (which must own the account when both name one), or the account's. */
function counterpartyOf(input: TransferPlanInput, destinationAccount: OpenAccountState | undefined): string | null {
  const named = input.body.destination.counterpartyId
  const owned = destinationAccount?.account.counterpartyId ?? null
  if (named === undefined) return owned
  assertInvariant(input.facts.counterparty?.id === named, 'the named counterparty is loaded before planning')
  if (owned && owned !== named)
    throw invalid('counterparty_mismatch', `The destination account belongs to counterparty ${owned}`, [
      { field: 'destination.counterpartyId', message: `must be ${owned}, the account's counterparty`, value: named },
    ])
  return named
}

/** Checks every rule of a create request against its facts, and plans the transfer. */
export function planTransfer(input: TransferPlanInput): NewTransfer {
  const { body, facts, environment, transferId, now, entropy } = input
  const received = input.planning?.receivedDeposit === true
  const { sender, sourceAccount } = facts
  const destination = destinationOf(input)
  const source: RouteSide = sourceAccount
    ? sourceBalanceSide(sourceAccount, sender.id, body.source)
    : externalSourceSide(body.source.paymentRail, body.source.currency)
  if (body.source.refundAccountId !== undefined && !received) {
    assertInvariant(facts.refundAccount, 'the refund account is loaded before planning')
    sourceBalanceSide(facts.refundAccount, sender.id, { currency: source.currency })
  }
  if (body.source.externalAccountId !== undefined) {
    assertInvariant(facts.sourceExternalAccount, 'the source external account is loaded before planning')
    assertSourceExternalAccount(facts.sourceExternalAccount, sender.id, source)
  }
  assertRoute(source, destination.side)
  assertAmountsWithinBound(amountFields(body, source.currency, destination.side.currency))
  if (!received) assertMaySend(senderFactsOf(sender), source, destination.side)
  const counterpartyId = counterpartyOf(input, destination.account)
  assertInvariant((body.quoteId === undefined) === (facts.quote === undefined), 'a quoted transfer has its quote loaded')
  const fee = { fixedMinor: BigInt(body.developerFeeFixed ?? '0'), percent: feePercentText(body.developerFeePercent) }
  const priced = facts.quote
    ? quotedPricing(facts.quote, sender.id, body, source, destination.side)
    : price({ sourceCurrency: source.currency, destinationCurrency: destination.side.currency, amount: amountOf(body), fee })
  const sourceAmount = { currency: source.currency, amountMinor: priced.sourceMinor.toString() }
  const destinationCustomerId = destination.account?.account.customerId ?? null
  const rail = paymentRailOf(destination.side)
  const details = destinationDetails(destination.account)
  const depositAddress = source.kind === 'CHAIN' ? sandboxWalletAddress(addressTypeOf(source.chain), entropy.depositAddressSeed) : null
  const legs = planLegs(source, destination.side)
  assertInvariant(legs.length <= entropy.legIds.length, `a route of ${legs.length} legs needs as many leg ids`)
  const display = formatDecimal(priced.sourceMinor, requireExponent(source.currency))
  return {
    customerId: sender.id,
    flow: deriveFlow(source, destination.side),
    status: body.confirm === false ? 'DRAFT' : 'PENDING',
    createdBy: 'CALLER',
    heldByPlatform: false,
    source: {
      kind: source.kind,
      currency: source.currency,
      paymentRail: paymentRailOf(source),
      accountId: sourceAccount?.account.accountId ?? null,
      accountType: sourceAccount ? sourceAccount.account.type : null,
      externalAccountId: body.source.externalAccountId ?? null,
      fromAddress: body.source.fromAddress ?? null,
      refundAccountId: body.source.refundAccountId ?? null,
      accountName: null,
    },
    destination: {
      kind: destination.side.kind,
      currency: destination.side.currency,
      paymentRail: rail,
      accountId: destination.account?.account.accountId ?? null,
      accountType: destination.account?.account.type ?? null,
      externalAccountId: destination.account && !destination.account.account.holdsBalance ? destination.account.account.accountId : null,
      toAddress: destination.toAddress,
      accountName: details.accountName,
      bankName: details.bankName,
      bankCountryCode: details.bankCountryCode,
      wireMessage: body.destination.wireMessage ?? null,
      achReference: body.destination.achReference ?? null,
      swiftReference: body.destination.swiftReference ?? null,
      rtpReference: body.destination.rtpReference ?? null,
      payoutReference: body.destination.payoutReference ?? null,
      customerId: destinationCustomerId,
    },
    sourceAmount,
    destinationAmount: { currency: destination.side.currency, amountMinor: priced.destinationMinor.toString() },
    fee: { fixedMinor: fee.fixedMinor.toString(), percent: fee.percent, amountMinor: priced.feeMinor.toString() },
    rate: {
      exchangeRate: priced.exchangeRate,
      referenceRate: priced.referenceRate,
      referenceRateAsOf: facts.quote?.referenceRateAsOf ?? new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString(),
      referenceProvider: priced.referenceProvider,
    },
    legs: legs.map((leg, index) => ({ ...leg, id: entropy.legIds[index]! })),
    funding: source.kind === 'BALANCE' ? 'BALANCE' : 'DEPOSIT',
    depositInstructions: depositInstructionsFor(source, transferId, sourceAmount, depositAddress),
    counterpartyId,
    isThirdParty: counterpartyId !== null || (destinationCustomerId !== null && destinationCustomerId !== sender.id),
    clientReferenceId: body.clientReferenceId ?? null,
    quoteId: facts.quote?.quoteId ?? null,
    ...(body.draftId === undefined ? {} : { draftId: body.draftId }),
    remarks: body.remarks ?? null,
    metadata: body.metadata ?? {},
    agentId: input.agentId ?? null,
    parentTransferId: null,
    schedule: scheduleOf(destination.side, now),
    swiftRouting: rail === 'SWIFT' ? routingOf(details.bic, now) : null,
    sandboxTrigger: environment === 'sandbox' ? sandboxTrigger(display) : null,
  }
}

/**
 * 422 insufficient_funds when a submitted transfer paid from a balance asks more than the source
 * account has available (nothing is written); a draft is checked at submit, and FAIL_BEFORE_FUNDING
 * is the sandbox's failure to fund, which must be allowed to happen.
 */
export function assertBalanceCovers(planned: NewTransfer, sourceAccount: OpenAccountState | undefined): void {
  if (planned.funding !== 'BALANCE' || planned.status !== 'PENDING' || planned.sandboxTrigger === 'FAIL_BEFORE_FUNDING') return
  assertInvariant(sourceAccount, 'a balance-funded transfer has its source account loaded')
  const { currency, amountMinor } = planned.sourceAmount
  const available = sourceAccount.funds ? availableIn(sourceAccount.funds, currency) : 0n
  if (available < BigInt(amountMinor))
    throw invalid(
      'insufficient_funds',
      `Account ${sourceAccount.account.accountId} has ${available} ${currency} minor units available, ${amountMinor} needed`,
      [{ field: 'sourceAmount', message: `at most ${available} ${currency} minor units are available`, value: amountMinor }],
    )
}
