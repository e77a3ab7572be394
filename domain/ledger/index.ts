// The double-entry ledger: its accounts, transactions whose postings sum to zero per currency, and
// balances as their fold. Pure; the balance-account aggregate and `ledger verify` build on it.
export * from './ledgerAccounts.js'
export * from './transaction.js'
export * from './balances.js'
export * from './splitMovement.js'
