// Balances as a fold of ledger transactions: each ledger account's balance per currency is the sum
// of its postings. Pure; the balance-account decider keeps its own two accounts this way, and
// `ledger verify` recomputes every balance the same way from the events.
import { type LedgerTransaction, assertBalanced } from './transaction.js'

/** Balances keyed by `<ledgerAccount>|<currency>`, in minor units. */
export type LedgerBalances = ReadonlyMap<string, bigint>

export const balanceKey = (ledgerAccount: string, currency: string) => `${ledgerAccount}|${currency}`

export function balanceOf(balances: LedgerBalances, ledgerAccount: string, currency: string): bigint {
  return balances.get(balanceKey(ledgerAccount, currency)) ?? 0n
}

/** The balances after `tx` (a new map; `tx` must balance). */
export function applyTransaction(balances: LedgerBalances, tx: LedgerTransaction): LedgerBalances {
  assertBalanced(tx)
  const next = new Map(balances)
  for (const p of tx.postings) {
    const key = balanceKey(p.ledgerAccount, p.currency)
    next.set(key, (next.get(key) ?? 0n) + BigInt(p.amountMinor))
  }
  return next
}

/** The sum of every balance per currency: zero for any ledger built from balanced transactions. */
export function totalsByCurrency(balances: LedgerBalances): Map<string, bigint> {
  const totals = new Map<string, bigint>()
  for (const [key, amount] of balances) {
    const currency = key.slice(key.lastIndexOf('|') + 1)
    totals.set(currency, (totals.get(currency) ?? 0n) + amount)
  }
  return totals
}
