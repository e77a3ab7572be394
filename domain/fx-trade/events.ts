// Events of an FX trade, one stream per trade (`fx_trade-tfr_...`): created from an accepted quote
// (its prices copied, so the trade reads from its own stream alone), the source wallet's screening,
// the deposit (received, then settled and converted: money enters the ledger), the payout (requested
// by the sandbox, then sent), and the terminal states. The events that move money carry their ledger
// transaction (`transaction`), which `ledger verify` folds. Nothing personal: no remitter is kept.
import { z } from 'zod'
import { ledgerTransactionSchema } from '../ledger/index.js'
import { FxQuoteCreated } from '../fx-quote/events.js'
import { depositInstructionsSchema, trackingSchema } from '../transfer/events.js'

const id = z.string().min(1).max(64)
const minor = z.string().regex(/^\d{1,40}$/)
const at = z.iso.datetime()
const code = z.string().min(1).max(64)
const message = z.string().max(300)
/** Every event names its trade, organization, customer and quote: a public event is made from the event alone. */
const ref = { tradeId: id, organizationId: id, customerId: id, quoteId: id }

export const FX_TRADE_CREATED_STATUSES = ['PENDING_WALLET_APPROVAL', 'AWAITING_DEPOSIT'] as const

/** The accepted quote's terms, copied: a trade reads from its own stream alone. */
const quoteTerms = FxQuoteCreated.pick({
  pair: true,
  sourceAmountMinor: true,
  destinationAmountMinor: true,
  feeMinor: true,
  spreadBps: true,
  exchangeRate: true,
  rate: true,
  referenceRate: true,
  referenceProvider: true,
  referenceRateAsOf: true,
}).shape

export const FxTradeCreated = z.object({
  ...ref,
  ...quoteTerms,
  /** `<source currency>:<network, or BANK for fiat>`: the one-active-trade slot it holds. */
  slotKey: z.string().max(40),
  sourceAccountId: id.nullable(),
  destinationAccountId: id,
  /** What the payout goes to, as the transfer view shows it: the wallet's address, or the bank's name and country. */
  destination: z.object({
    toAddress: z.string().max(120).nullable(),
    bankName: z.string().max(200).nullable(),
    bankCountryCode: z.string().max(2).nullable(),
  }),
  status: z.enum(FX_TRADE_CREATED_STATUSES),
  depositInstructions: depositInstructionsSchema,
  /** How long the deposit may take once the trade awaits it. */
  depositWindowMs: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60 * 60 * 1000),
  depositDeadline: at.nullable(),
  screeningDeadline: at.nullable(),
  createdAt: at,
})

export const FxTradeWalletApproved = z.object({ ...ref, depositDeadline: at, at })

/** `rail`: the chain or bank rail it came on (the sandbox settles it on that rail's clock). */
export const FxTradeDepositReceived = z.object({ ...ref, amountMinor: minor, rail: code, tracking: trackingSchema, at })

/** The deposit is on the ledger (world → FX clearing); `outcome` says what it leads to. */
export const FxTradeDepositSettled = z.object({
  ...ref,
  amountMinor: minor,
  outcome: z.enum(['CONVERT', 'REFUND_SHORT', 'REFUND_EXCESS', 'REFUND_LATE', 'FAIL_PROVIDER']),
  transaction: ledgerTransactionSchema,
  at,
})

/** Converted at the quote: the source sold (less the spread, kept as revenue), the destination bought. */
export const FxTradeConverted = z.object({ ...ref, transaction: ledgerTransactionSchema, at })

/** `rail`: the chain or bank rail it leaves on; `outcome`: what the sandbox's rail will do with it. */
export const FxTradePayoutRequested = z.object({ ...ref, outcome: z.enum(['COMPLETED', 'FAILED', 'RETURNED']), rail: code, at })

export const FxTradePaidOut = z.object({ ...ref, tracking: trackingSchema, transaction: ledgerTransactionSchema, at })

export const FxTradeCompleted = z.object({ ...ref, at })

export const FxTradeExpired = z.object({ ...ref, depositDeadline: at, at })

export const FxTradeFailed = z.object({
  ...ref,
  code,
  message,
  /** The money given back when some had arrived (the refund's ledger transaction), else null. */
  refundedMinor: minor.nullable(),
  transaction: ledgerTransactionSchema.nullable(),
  at,
})

export const FxTradeRefunded = z.object({
  ...ref,
  reason: z.enum(['DEPOSIT_SHORT', 'DEPOSIT_EXCESS', 'DEPOSIT_LATE', 'PAYOUT_RETURNED']),
  refundedMinor: minor,
  /** Null when the refund nets to nothing on the ledger (a returned payout with no spread). */
  transaction: ledgerTransactionSchema.nullable(),
  at,
})

export const fxTradeEventSchemas = {
  FxTradeCreated,
  FxTradeWalletApproved,
  FxTradeDepositReceived,
  FxTradeDepositSettled,
  FxTradeConverted,
  FxTradePayoutRequested,
  FxTradePaidOut,
  FxTradeCompleted,
  FxTradeExpired,
  FxTradeFailed,
  FxTradeRefunded,
} as const

type Schemas = typeof fxTradeEventSchemas
export type FxTradeEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type FxTradeCreatedData = z.infer<typeof FxTradeCreated>
