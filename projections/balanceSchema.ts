// The balances read model's tables (projections/balances.ts owns them; migration 0016). Amounts are
// numeric minor units, read and written as the text of an integer (BigInt inside), never a float.
import type { Timestamp } from './columnTypes.js'

/** One row per balance account: its scope and how many history entries it has (the next entry's sequence). */
export interface BalanceAccountsTable {
  account_id: string
  organization_id: string
  customer_id: string | null
  /** The account's spec type (INFINITE_BANK, INFINITE_WALLET). */
  type: string
  entry_count: string
  opened_at: Timestamp
  /** The time of the last funds event applied (the opening while there is none). */
  updated_at: Timestamp
  closed_at: Timestamp | null
}

/** Available and committed minor units per account and currency (CHECK: both >= 0). */
export interface BalancesTable {
  account_id: string
  currency: string
  available: string
  committed: string
}

/** The balance history: one entry per funds event per account, `seq` 1, 2, ... per account. */
export interface BalanceEntriesTable {
  account_id: string
  seq: string
  /** `btx_` + the stored event's id (stable across rebuilds). */
  id: string
  currency: string
  /** DEPOSIT, DRAW, HOLD, RELEASE, PAYOUT, REVERSAL */
  type: string
  available_change: string
  committed_change: string
  available_after: string
  committed_after: string
  /** HOLD (a hold id), DEPOSIT (a deposit or fund-in reference) or DRAW (a credit-line draw id). */
  cause_type: string
  cause_id: string
  description: string
  transaction_id: string
  created_at: Timestamp
}

/** Open holds (payouts in flight); a settled or released hold's row is deleted. */
export interface BalanceHoldsTable {
  account_id: string
  hold_id: string
  /** The sequence of the entry that placed it (the list's order). */
  seq: string
  currency: string
  amount: string
  created_at: Timestamp
}

export interface BalanceDatabase {
  balance_accounts: BalanceAccountsTable
  balances: BalancesTable
  balance_entries: BalanceEntriesTable
  balance_holds: BalanceHoldsTable
}
