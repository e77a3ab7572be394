// Where a transfer's money is between its two sides, on the ledger (domain/ledger). Between two
// balance accounts of the service in one currency it passes through clearing: taken from the
// source (a settled hold, or a reclaimed credit when reversed), credited to the destination. Money
// that leaves the service (a payout) or is converted (two currencies) goes to the world, and comes
// from it. Money that could not land is held in suspense. Every clearing and suspense posting names
// its transfer in its transaction's id, so `ledger verify` can attribute them (transferIdIn).
import type { OpenTransferState } from './state.js'

/** Clearing or the world, the two places a transfer's money passes through. */
export type Transit = 'clearing' | 'world'
/** Where a balance destination's credit comes from. */
export type DeliverySource = Transit | 'mint'

const sameCurrency = (s: OpenTransferState) => s.created.sourceAmount.currency === s.created.destinationAmount.currency

/** Clearing between two balance accounts of one currency; otherwise the world. */
export function transitOf(s: OpenTransferState): Transit {
  return s.created.source.kind === 'BALANCE' && s.created.destination.kind === 'BALANCE' && sameCurrency(s) ? 'clearing' : 'world'
}

/** A balance-funded transfer delivers what its settled hold put in transit; a deposit from the world (or the sandbox's mint). */
export function deliverySource(s: OpenTransferState): DeliverySource {
  if (s.funding?.method === 'BALANCE') return transitOf(s)
  return s.created.mintOnDelivery === true ? 'mint' : 'world'
}

/** The leg that credits a balance destination, while the credit is being applied (the rails wait for it). */
export function awaitingBalanceCredit(s: OpenTransferState): boolean {
  const leg = s.legs[s.currentLegIndex]
  return (
    s.status === 'PROCESSING' && s.currentLegIndex === s.legs.length - 1 && leg?.type === 'BALANCE_CREDIT' && leg.status === 'IN_PROGRESS'
  )
}

/** What a reversal sends back: the source amount less the developer fee (kept, as Stripe keeps application fees). */
export function returnAmount(s: OpenTransferState): { currency: string; amountMinor: bigint } {
  return {
    currency: s.created.sourceAmount.currency,
    amountMinor: BigInt(s.created.sourceAmount.amountMinor) - BigInt(s.created.fee.amountMinor),
  }
}

// ---- Ledger transaction ids and credit causes -------------------------------------------------
/** `<n>`: the transfer's n-th time in suspense, so each move in or out has an id of its own. */
export const transferLedgerIds = {
  suspend: (transferId: string, n: number) => `suspend:${transferId}:${n}`,
  unsuspend: (transferId: string, n: number) => `unsuspend:${transferId}:${n}`,
  release: (transferId: string, n: number) => `release:${transferId}:${n}`,
}

const TRANSFER_ID = /tfr_[0-9a-z]{26}/

/** The transfer a ledger transaction (its id) belongs to, if it names one. */
export function transferIdIn(transactionId: string): string | undefined {
  return TRANSFER_ID.exec(transactionId)?.[0]
}
