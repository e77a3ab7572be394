// An FX trade's money on the ledger (domain/ledger), in its two currencies. The deposit enters FX
// clearing from the world; the conversion sells the source to the liquidity provider (the world)
// less the spread, kept as FX revenue, and buys the destination into FX clearing; the payout sends
// it to the world. A refund gives the source back: from clearing when the deposit was not converted,
// or by unwinding the conversion at the same prices (the spread returned too) when the payout failed
// or came back. Each transaction's id names the trade (`tfr_`), so `ledger verify` attributes what
// waits in FX clearing to its trade. Every transaction sums to zero per currency.
import type { LedgerTransaction } from '../ledger/index.js'
import type { FxTradeCreatedData } from './events.js'

type Trade = Pick<FxTradeCreatedData, 'tradeId' | 'pair' | 'sourceAmountMinor' | 'destinationAmountMinor' | 'feeMinor'>

const posting = (ledgerAccount: string, currency: string, amount: bigint) => ({
  ledgerAccount,
  currency,
  amountMinor: amount.toString(),
})

/** `amount` of `currency` from one ledger account to another: the two postings of a one-currency movement. */
const move = (from: string, to: string, currency: string, amount: bigint) =>
  [posting(from, currency, -amount), posting(to, currency, amount)] as LedgerTransaction['postings']

/** `<step>:<tradeId>`: the step names the movement, the trade id attributes it. */
export const fxTradeLedgerIds = {
  deposit: (tradeId: string) => `fx-deposit:${tradeId}`,
  convert: (tradeId: string) => `fx-convert:${tradeId}`,
  payout: (tradeId: string) => `fx-payout:${tradeId}`,
  refund: (tradeId: string) => `fx-refund:${tradeId}`,
}

/** The deposit as received: `amount` of the source currency from the world into FX clearing. */
export function depositTransaction(trade: Trade, amount: bigint): LedgerTransaction {
  const currency = trade.pair.sourceCurrency
  return {
    id: fxTradeLedgerIds.deposit(trade.tradeId),
    kind: 'CREDIT',
    postings: move('world', 'fx_clearing', currency, amount),
    description: `FX trade ${trade.tradeId}: deposit received`,
  }
}

/** The conversion at the quote's prices (the deposit was exactly the source amount). */
export function conversionTransaction(trade: Trade): LedgerTransaction {
  const { sourceCurrency: from, destinationCurrency: to } = trade.pair
  const source = BigInt(trade.sourceAmountMinor)
  const fee = BigInt(trade.feeMinor)
  const destination = BigInt(trade.destinationAmountMinor)
  const postings = [
    posting('fx_clearing', from, -source),
    posting('world', from, source - fee),
    ...(fee > 0n ? [posting('fx_spread', from, fee)] : []),
    posting('world', to, -destination),
    posting('fx_clearing', to, destination),
  ]
  return {
    id: fxTradeLedgerIds.convert(trade.tradeId),
    kind: 'SETTLE',
    postings: postings as LedgerTransaction['postings'],
    description: `FX trade ${trade.tradeId}: ${from} converted to ${to}`,
  }
}

/** The destination amount paid out to the world. */
export function payoutTransaction(trade: Trade): LedgerTransaction {
  const currency = trade.pair.destinationCurrency
  const amount = BigInt(trade.destinationAmountMinor)
  return {
    id: fxTradeLedgerIds.payout(trade.tradeId),
    kind: 'SETTLE',
    postings: move('fx_clearing', 'world', currency, amount),
    description: `FX trade ${trade.tradeId}: paid out`,
  }
}

/** A deposit that was never converted, sent back to its sender in full. */
export function depositRefundTransaction(trade: Trade, amount: bigint): LedgerTransaction {
  const currency = trade.pair.sourceCurrency
  return {
    id: fxTradeLedgerIds.refund(trade.tradeId),
    kind: 'REVERSAL',
    postings: move('fx_clearing', 'world', currency, amount),
    description: `FX trade ${trade.tradeId}: deposit returned`,
  }
}

/**
 * The conversion unwound at its own prices and the whole source amount sent back. `paidOut`: the
 * destination amount had left and came back (a returned payout), so it is no longer in FX clearing.
 */
export function unwindRefundTransaction(trade: Trade, paidOut: boolean): LedgerTransaction | null {
  const { sourceCurrency: from, destinationCurrency: to } = trade.pair
  const fee = BigInt(trade.feeMinor)
  const destination = BigInt(trade.destinationAmountMinor)
  // Unwind: the destination goes back to the provider, which returns the source less the spread; the
  // spread is given back from revenue; the whole source goes to the sender. What nets out is below.
  const postings = [
    ...(paidOut ? [] : [posting('fx_clearing', to, -destination), posting('world', to, destination)]),
    ...(fee > 0n ? [posting('fx_spread', from, -fee), posting('world', from, fee)] : []),
  ]
  // A returned payout with no spread nets to nothing on the ledger.
  if (postings.length === 0) return null
  return {
    id: fxTradeLedgerIds.refund(trade.tradeId),
    kind: 'REVERSAL',
    postings: postings as LedgerTransaction['postings'],
    description: `FX trade ${trade.tradeId}: conversion unwound, source returned`,
  }
}
