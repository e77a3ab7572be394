// The transfers the platform creates itself (flows FEE_CRYPTO, REFUND_CRYPTO, REFUND_FIAT), from
// the transfer they follow: a refund sends a received deposit back where it came from (a chain
// address, or the sender's bank account on the deposit's rail); a fee sweep moves a crypto
// transfer's developer fee to the organization's fee wallet. Both are funded at creation (the
// platform already holds the money) and settled by the rails engine like any other transfer.
import { invalid } from '../errors.js'
import type { Chain } from '../shared/chain/index.js'
import type { PaymentRail } from '../shared/paymentRails.js'
import type { TransferCreatedData } from './events.js'
import { type RouteSide, planLegs } from './route.js'
import type { OpenTransferState } from './state.js'

export type SystemTransfer = Omit<TransferCreatedData, 'transferId' | 'organizationId' | 'at'>

type Made = { legIds: readonly string[]; schedule: TransferCreatedData['schedule']; now: Date }

function system(
  parent: OpenTransferState,
  flow: 'FEE_CRYPTO' | 'REFUND_CRYPTO' | 'REFUND_FIAT',
  source: RouteSide,
  destination: RouteSide & { toAddress: string | null; accountId: string | null },
  amountMinor: string,
  made: Made,
): SystemTransfer {
  const c = parent.created
  const money = { currency: source.currency, amountMinor }
  const rail = (side: RouteSide) => (side.kind === 'CHAIN' ? side.chain : side.kind === 'FIAT_RAIL' ? side.rail : 'BALANCE')
  const none = { accountId: null, accountType: null, externalAccountId: null, accountName: null }
  return {
    customerId: c.customerId,
    flow,
    status: 'PENDING',
    createdBy: 'PLATFORM',
    heldByPlatform: false,
    source: { ...none, kind: source.kind, currency: source.currency, paymentRail: rail(source), fromAddress: null, refundAccountId: null },
    destination: {
      ...none,
      kind: destination.kind,
      currency: destination.currency,
      paymentRail: rail(destination),
      accountId: destination.accountId,
      externalAccountId: destination.accountId,
      toAddress: destination.toAddress,
      bankName: null,
      bankCountryCode: null,
      wireMessage: null,
      achReference: null,
      swiftReference: null,
      rtpReference: null,
      payoutReference: `${flow} of ${c.transferId}`,
      customerId: c.customerId,
    },
    sourceAmount: money,
    destinationAmount: money,
    fee: { fixedMinor: '0', percent: null, amountMinor: '0' },
    rate: {
      exchangeRate: '1',
      referenceRate: '1',
      referenceRateAsOf: c.rate.referenceRateAsOf,
      referenceProvider: c.rate.referenceProvider,
    },
    legs: planLegs(source, destination).map((leg, i) => ({ ...leg, id: made.legIds[i]! })),
    funding: 'DEPOSIT',
    depositInstructions: null,
    counterpartyId: null,
    isThirdParty: false,
    clientReferenceId: c.clientReferenceId,
    quoteId: null,
    remarks: null,
    metadata: {},
    agentId: null,
    parentTransferId: c.transferId,
    schedule: made.schedule,
    swiftRouting: null,
    sandboxTrigger: null,
  }
}

/** The refund of a funded deposit: to `address` on the deposit's chain, or to the sender's bank account on its rail. */
export function refundTransfer(
  parent: OpenTransferState,
  to: { address: string | null; bankAccountId: string | null },
  made: Made,
): SystemTransfer {
  const c = parent.created
  const amount = c.sourceAmount.amountMinor
  if (c.source.kind === 'CHAIN') {
    const chain = c.source.paymentRail as Chain
    if (!to.address)
      throw invalid('refund_address_required', `Transfer ${c.transferId} came from an unknown address: give the address to refund`, [
        { field: 'address', message: `an address on ${chain}` },
      ])
    const source: RouteSide = { kind: 'CHAIN', chain, currency: c.sourceAmount.currency }
    return system(parent, 'REFUND_CRYPTO', source, { ...source, toAddress: to.address, accountId: null }, amount, made)
  }
  const rail = c.source.paymentRail as PaymentRail
  if (!to.bankAccountId)
    throw invalid('refund_account_required', `Transfer ${c.transferId} names no bank account its deposit came from: give one to refund`, [
      { field: 'externalAccountId', message: "the sender's external bank account (eba_) to refund to" },
    ])
  const source: RouteSide = { kind: 'FIAT_RAIL', rail, currency: c.sourceAmount.currency }
  return system(parent, 'REFUND_FIAT', source, { ...source, toAddress: null, accountId: to.bankAccountId }, amount, made)
}

/** The sweep of a crypto transfer's developer fee to the organization's fee wallet on the same chain. */
export function feeTransfer(parent: OpenTransferState, feeWallet: string, made: Made): SystemTransfer {
  const c = parent.created
  const chain = c.source.paymentRail as Chain
  const source: RouteSide = { kind: 'CHAIN', chain, currency: c.sourceAmount.currency }
  return system(parent, 'FEE_CRYPTO', source, { ...source, toAddress: feeWallet, accountId: null }, c.fee.amountMinor, made)
}

/** True when a completed transfer's developer fee is swept by a FEE_CRYPTO transfer. */
export const sweepsFee = (s: OpenTransferState): boolean =>
  s.created.source.kind === 'CHAIN' && BigInt(s.created.fee.amountMinor) > 0n && s.created.parentTransferId === null
