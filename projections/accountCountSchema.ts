// The account counts table (projections/accountCounts.ts owns it; migration 0017).

export interface AccountCountsTable {
  organization_id: string
  /** bigint: pg returns it as a string. */
  accounts: string
}

export interface AccountCountDatabase {
  account_counts: AccountCountsTable
}
