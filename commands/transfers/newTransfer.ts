// A new transfer from a create request: the sender, the two sides (from the accounts the body
// names), the route checked, the capabilities, the price (fee withheld, reference rate), the legs,
// the deposit instructions, the rail's schedule and the sandbox trigger. Everything a
// TransferCreated event needs; nothing is written here.
import type { OpenAccountState } from '../../domain/account/decider.js'
import { invalid } from '../../domain/errors.js'
import { sandboxTrigger, swiftRouting } from '../../domain/rails/index.js'
import { scheduleOf } from '../../domain/transfer/schedule.js'
import { destinationAccountSide, externalSourceSide, sourceBalanceSide } from '../../domain/transfer/accountSides.js'
import { assertSourceExternalAccount } from '../../domain/transfer/sourceExternalAccount.js'
import { assertMaySend } from '../../domain/transfer/capabilities.js'
import { depositInstructionsFor } from '../../domain/transfer/depositInstructions.js'
import type { TransferCreatedData } from '../../domain/transfer/events.js'
import { feePercentText, price } from '../../domain/transfer/pricing.js'
import { type RouteSide, assertRoute, deriveFlow, paymentRailOf, planLegs } from '../../domain/transfer/route.js'
import { addressTypeOf, sandboxWalletAddress, validateWalletAddress } from '../../domain/shared/chain/index.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import { type AmountField, assertAmountsWithinBound, formatDecimal, requireExponent } from '../../domain/shared/money/index.js'
import { secureRandomBytes } from '../../domain/secureRandom.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { type CustomerScope, scopedCustomerId } from '../customers/scope.js'
import type { CreateTransferBody } from './createTransferBody.js'
import { loadCounterparty, loadOrgAccount, loadSender, requestedCapabilitiesOf } from './transferFacts.js'

export type NewTransfer = Omit<TransferCreatedData, 'transferId' | 'organizationId' | 'at'>

/** The BIC the sandbox sends SWIFT payments from. */
const SANDBOX_SENDER_BIC = 'CHASUS33XXX'

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

/**
 * `receivedDeposit`: the plan of money already received (a fixed route's sweep planned after its
 * deposit was recorded): the destination's status and the sender's standing do not refuse it; the
 * caller holds it for review when they would have.
 */
type Planning = { receivedDeposit?: boolean }

async function destinationSide(
  commands: Commands,
  organizationId: string,
  body: CreateTransferBody,
  environment: Environment,
  planning: Planning,
) {
  const d = body.destination
  const accountId = d.accountId ?? d.externalAccountId
  if (d.accountId !== undefined && d.externalAccountId !== undefined && d.accountId !== d.externalAccountId)
    throw invalid('destination_ambiguous', 'Give destination.accountId or destination.externalAccountId, not two different accounts', [
      { field: 'destination.externalAccountId', message: 'must equal destination.accountId when both are given' },
    ])
  if (accountId !== undefined) {
    if (d.toAddress !== undefined)
      throw invalid('destination_ambiguous', 'Give a destination account or a toAddress, not both', [
        { field: 'destination.toAddress', message: 'omit it with an account' },
      ])
    const account = await loadOrgAccount(commands, organizationId, accountId)
    const side = destinationAccountSide(
      account,
      { currency: d.currency, paymentRail: d.paymentRail },
      { whateverItsStatus: planning.receivedDeposit === true },
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

export async function newTransfer(
  request: CustomerScope,
  deps: { commands: Commands; environment: Environment },
  organizationId: string,
  transferId: string,
  body: CreateTransferBody,
  now: Date,
  planning: Planning = {},
): Promise<NewTransfer> {
  const { commands, environment } = deps
  // The facts are read side by side: the sender (when named), the source and the destination accounts.
  const named = body.sourceCustomerId === undefined ? undefined : scopedCustomerId(request, body.sourceCustomerId)
  const [sourceAccount, namedSender, destination] = await Promise.all([
    body.source.accountId === undefined ? undefined : loadOrgAccount(commands, organizationId, body.source.accountId),
    named === undefined ? undefined : loadSender(commands, organizationId, named),
    destinationSide(commands, organizationId, body, environment, planning),
  ])
  const senderId = named ?? scopedCustomerId(request, sourceAccount?.account.customerId ?? undefined)
  if (senderId === undefined)
    throw invalid('source_customer_required', 'sourceCustomerId is required', [
      { field: 'sourceCustomerId', message: 'the sending customer (cus_)' },
    ])
  const sender = namedSender ?? (await loadSender(commands, organizationId, senderId))
  const source: RouteSide = sourceAccount
    ? sourceBalanceSide(sourceAccount, sender.id, body.source)
    : externalSourceSide(body.source.paymentRail, body.source.currency)
  if (body.source.refundAccountId !== undefined && planning.receivedDeposit !== true) {
    const refund = await loadOrgAccount(commands, organizationId, body.source.refundAccountId)
    sourceBalanceSide(refund, sender.id, { currency: source.currency })
  }
  if (body.source.externalAccountId !== undefined)
    assertSourceExternalAccount(await loadOrgAccount(commands, organizationId, body.source.externalAccountId), sender.id, source)
  assertRoute(source, destination.side)
  assertAmountsWithinBound(amountFields(body, source.currency, destination.side.currency))
  if (planning.receivedDeposit !== true)
    assertMaySend(
      { customerId: sender.id, status: sender.status, requestedCapabilities: requestedCapabilitiesOf(sender) },
      source,
      destination.side,
    )
  const counterpartyId = body.destination.counterpartyId ?? destination.account?.account.counterpartyId ?? null
  if (body.destination.counterpartyId !== undefined) {
    await loadCounterparty(commands, organizationId, body.destination.counterpartyId)
    const owned = destination.account?.account.counterpartyId
    if (owned && owned !== body.destination.counterpartyId)
      throw invalid('counterparty_mismatch', `The destination account belongs to counterparty ${owned}`, [
        {
          field: 'destination.counterpartyId',
          message: `must be ${owned}, the account's counterparty`,
          value: body.destination.counterpartyId,
        },
      ])
  }
  if (body.quoteId !== undefined)
    throw invalid('quote_not_found', `Quote ${body.quoteId} does not exist`, [
      { field: 'quoteId', message: 'no firm quote has this id', value: body.quoteId },
    ])
  const fee = { fixedMinor: BigInt(body.developerFeeFixed ?? '0'), percent: feePercentText(body.developerFeePercent) }
  const priced = price({ sourceCurrency: source.currency, destinationCurrency: destination.side.currency, amount: amountOf(body), fee })
  const sourceAmount = { currency: source.currency, amountMinor: priced.sourceMinor.toString() }
  const destinationCustomerId = destination.account?.account.customerId ?? null
  const rail = paymentRailOf(destination.side)
  const schedule = scheduleOf(destination.side, now)
  const details = destinationDetails(destination.account)
  const depositAddress = source.kind === 'CHAIN' ? sandboxWalletAddress(addressTypeOf(source.chain), secureRandomBytes(32)) : null
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
      referenceRateAsOf: new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString(),
      referenceProvider: priced.referenceProvider,
    },
    legs: planLegs(source, destination.side).map((leg) => ({ ...leg, id: newId('tleg') })),
    funding: source.kind === 'BALANCE' ? 'BALANCE' : 'DEPOSIT',
    depositInstructions: depositInstructionsFor(source, transferId, sourceAmount, depositAddress),
    counterpartyId,
    isThirdParty: counterpartyId !== null || (destinationCustomerId !== null && destinationCustomerId !== sender.id),
    clientReferenceId: body.clientReferenceId ?? null,
    quoteId: null,
    remarks: body.remarks ?? null,
    metadata: body.metadata ?? {},
    agentId: null,
    parentTransferId: null,
    schedule,
    swiftRouting: rail === 'SWIFT' ? routingOf(details.bic, now) : null,
    sandboxTrigger: environment === 'sandbox' ? sandboxTrigger(display) : null,
  }
}
