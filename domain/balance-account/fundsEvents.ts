// Events of a balance account's funds, version 1: each carries the one ledger transaction it
// records (domain/ledger), so the balances and `ledger verify` are folds of the same postings.
import { z } from 'zod'
import { ledgerTransactionSchema } from '../ledger/index.js'

const holdRef = { accountId: z.string(), holdId: z.string().min(1).max(100), at: z.string() }

export const FundsCredited = z.object({
  accountId: z.string(),
  /** What brought the money in (a deposit, a sandbox fund-in reference): shown in the history. */
  cause: z.string().min(1).max(100),
  transaction: ledgerTransactionSchema,
  at: z.string(),
})
export const FundsHeld = z.object({ ...holdRef, transaction: ledgerTransactionSchema })
export const HoldSettled = z.object({ ...holdRef, transaction: ledgerTransactionSchema })
export const HoldReleased = z.object({ ...holdRef, transaction: ledgerTransactionSchema })
export const CreditReversed = z.object({
  accountId: z.string(),
  cause: z.string().min(1).max(100),
  transaction: ledgerTransactionSchema,
  at: z.string(),
})

export const fundsEventSchemas = { FundsCredited, FundsHeld, HoldSettled, HoldReleased, CreditReversed } as const

type Schemas = typeof fundsEventSchemas
export type FundsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
