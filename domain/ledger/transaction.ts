// A ledger transaction: one money movement as postings whose amounts sum to zero per currency
// (double entry). Each posting changes one ledger account's balance by a signed amount in minor
// units. Stored in events as JSON, so amounts travel as integer strings; inside they are BigInt.
import { z } from 'zod'
import { isKnownCurrency } from '../shared/money/index.js'
import { type LedgerAccount, ledgerAccountSchema } from './ledgerAccounts.js'

export const LEDGER_TRANSACTION_LIMITS = {
  minPostings: 2,
  maxPostings: 16,
  maxDescriptionLength: 200,
  /** 10^30 minor units: beyond any real balance, and far inside what BigInt and Postgres numeric hold. */
  maxAbsAmountMinor: 10n ** 30n,
} as const

/** What a movement is, as the balance history shows it. */
/**
 * FEE: a developer fee kept from an externally funded transfer (no balance account involved);
 * SUSPENSE: a transfer's money held in suspense, or sent on from it.
 */
export const LEDGER_TRANSACTION_KINDS = ['CREDIT', 'HOLD', 'SETTLE', 'RELEASE', 'REVERSAL', 'DRAW', 'REPAYMENT', 'FEE', 'SUSPENSE'] as const
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number]

const INTEGER = /^-?(0|[1-9]\d*)$/
const absMinor = (v: string) => (v.startsWith('-') ? -BigInt(v) : BigInt(v))

const signedMinor = z
  .string()
  .max(40)
  .refine(
    (v) => INTEGER.test(v) && absMinor(v) <= LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor,
    'an integer amount of minor units, in range',
  )

export const postingSchema = z.object({
  ledgerAccount: ledgerAccountSchema,
  currency: z.string().refine(isKnownCurrency, 'a known currency'),
  /** Signed minor units: what this posting adds to the ledger account's balance. */
  amountMinor: signedMinor,
})

export const ledgerTransactionSchema = z.object({
  id: z.string().min(1).max(100),
  kind: z.enum(LEDGER_TRANSACTION_KINDS),
  postings: z.array(postingSchema).min(LEDGER_TRANSACTION_LIMITS.minPostings).max(LEDGER_TRANSACTION_LIMITS.maxPostings),
  description: z.string().max(LEDGER_TRANSACTION_LIMITS.maxDescriptionLength),
})
export type Posting = z.infer<typeof postingSchema>
export type LedgerTransaction = z.infer<typeof ledgerTransactionSchema>

export class UnbalancedTransactionError extends Error {
  override readonly name = 'UnbalancedTransactionError'
}

/** The sum of the postings per currency: all zero for a balanced transaction. */
export function sumsByCurrency(postings: readonly Posting[]): Map<string, bigint> {
  const sums = new Map<string, bigint>()
  for (const p of postings) sums.set(p.currency, (sums.get(p.currency) ?? 0n) + BigInt(p.amountMinor))
  return sums
}

/** Throws unless every currency's postings sum to zero and no posting is zero (the double-entry invariant). */
export function assertBalanced(tx: Pick<LedgerTransaction, 'id' | 'postings'>): void {
  if (tx.postings.some((p) => BigInt(p.amountMinor) === 0n)) throw new UnbalancedTransactionError(`${tx.id}: a posting of zero`)
  for (const [currency, sum] of sumsByCurrency(tx.postings))
    if (sum !== 0n) throw new UnbalancedTransactionError(`${tx.id}: ${currency} postings sum to ${sum}, not 0`)
}

/**
 * The one shape every movement of this slice has: `amountMinor` (positive) leaves `from` and
 * reaches `to`, in one currency. Balanced by construction; checked anyway.
 */
export function movement(m: {
  id: string
  kind: LedgerTransactionKind
  currency: string
  amountMinor: bigint
  from: LedgerAccount
  to: LedgerAccount
  description: string
}): LedgerTransaction {
  if (m.amountMinor <= 0n || m.amountMinor > LEDGER_TRANSACTION_LIMITS.maxAbsAmountMinor)
    throw new RangeError(`${m.id}: a movement moves a positive amount within bounds`)
  if (m.from === m.to) throw new RangeError(`${m.id}: a movement needs two different ledger accounts`)
  const tx: LedgerTransaction = {
    id: m.id,
    kind: m.kind,
    postings: [
      { ledgerAccount: m.from, currency: m.currency, amountMinor: (-m.amountMinor).toString() },
      { ledgerAccount: m.to, currency: m.currency, amountMinor: m.amountMinor.toString() },
    ],
    description: m.description.slice(0, LEDGER_TRANSACTION_LIMITS.maxDescriptionLength),
  }
  assertBalanced(tx)
  return tx
}
