// A movement from one ledger account to several: `from` gives the sum of the legs, each leg's
// account receives its amount, in one currency (a repayment: the world pays the credit line its
// principal and the fees account its fee, in one transaction). Zero legs are left out (double entry
// has no zero postings); at least one leg must move money. Balanced by construction; checked anyway.
import type { LedgerAccount } from './ledgerAccounts.js'
import { LEDGER_TRANSACTION_LIMITS, type LedgerTransaction, type LedgerTransactionKind, assertBalanced } from './transaction.js'

export type SplitLeg = { to: LedgerAccount; amountMinor: bigint }

export function splitMovement(m: {
  id: string
  kind: LedgerTransactionKind
  currency: string
  from: LedgerAccount
  legs: readonly SplitLeg[]
  description: string
}): LedgerTransaction {
  if (m.legs.some((leg) => leg.amountMinor < 0n)) throw new RangeError(`${m.id}: a leg moves a positive amount`)
  const legs = m.legs.filter((leg) => leg.amountMinor > 0n)
  if (legs.length === 0) throw new RangeError(`${m.id}: a split movement moves money on at least one leg`)
  if (legs.some((leg) => leg.to === m.from)) throw new RangeError(`${m.id}: a leg goes back to its own source`)
  if (new Set(legs.map((leg) => leg.to)).size !== legs.length) throw new RangeError(`${m.id}: two legs to one account`)
  if (legs.length + 1 > LEDGER_TRANSACTION_LIMITS.maxPostings) throw new RangeError(`${m.id}: too many legs`)
  const total = legs.reduce((sum, leg) => sum + leg.amountMinor, 0n)
  if (total > LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor) throw new RangeError(`${m.id}: amount out of bounds`)
  const tx: LedgerTransaction = {
    id: m.id,
    kind: m.kind,
    postings: [
      { ledgerAccount: m.from, currency: m.currency, amountMinor: (-total).toString() },
      ...legs.map((leg) => ({ ledgerAccount: leg.to, currency: m.currency, amountMinor: leg.amountMinor.toString() })),
    ],
    description: m.description.slice(0, LEDGER_TRANSACTION_LIMITS.maxDescriptionLength),
  }
  assertBalanced(tx)
  return tx
}
