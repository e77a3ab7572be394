// Balances as the API shows them: an account's balance per currency (available, committed, total as
// money objects, after Increase's balance lookup and Stripe's balance), its history entries (after
// Stripe's balance transactions: signed amount, the balance after, the cause), its open holds, and
// a customer's treasury. Rows in, wire objects out; minor units stay BigInt until toWire.
import { z } from 'zod'
import { moneyWire, toWire } from '../../domain/shared/money/index.js'
import { type HoldResource, holdResourceSchema } from '../../domain/account/holdResource.js'
import { BALANCE_CAUSE_TYPES, BALANCE_ENTRY_TYPES } from '../../projections/balances.js'

const money = (currency: string, minor: string | bigint) => toWire({ currency, amountMinor: BigInt(minor) })

export const currencyBalanceResource = z
  .object({
    currency: z.string().describe('The currency of this balance'),
    available: moneyWire.describe('Funds available to pay out now (never negative)'),
    committed: moneyWire.describe('Funds committed to payouts in flight: the sum of the open holds (never negative)'),
    total: moneyWire.describe('available + committed: what the account holds'),
  })
  .describe("One currency's balance")

export type BalanceRow = { currency: string; available: string; committed: string }

export function toCurrencyBalance(row: BalanceRow): z.infer<typeof currencyBalanceResource> {
  return {
    currency: row.currency,
    available: money(row.currency, row.available),
    committed: money(row.currency, row.committed),
    total: money(row.currency, BigInt(row.available) + BigInt(row.committed)),
  }
}

export const accountBalanceResource = z
  .object({
    accountId: z.string().describe('The balance account'),
    balances: z.array(currencyBalanceResource).describe('One entry per currency the account holds, in currency order'),
    asOf: z
      .string()
      .describe(
        'The balance as of this time (ISO 8601): its last movement (or the opening). Every write acknowledged before the read is included',
      ),
  })
  .describe('The balance of a balance account')

export const balanceTransactionResource = z
  .object({
    id: z.string().describe('Entry id (btx_); stable'),
    accountId: z.string().describe('The balance account'),
    type: z
      .enum(BALANCE_ENTRY_TYPES)
      .describe(
        'DEPOSIT (a deposit or fund-in credit), DRAW (a credit-line draw credited), HOLD (funds committed to a payout), ' +
          'RELEASE (a hold released: funds back to available), PAYOUT (a hold settled: the funds left), REVERSAL (a credit taken back)',
      ),
    amount: moneyWire.describe(
      'Signed: what the entry moved, positive into available funds (DEPOSIT, DRAW, RELEASE), negative out of them ' +
        '(HOLD, REVERSAL) or, for a PAYOUT, out of committed funds',
    ),
    availableChange: moneyWire.describe('Signed change of the available balance'),
    committedChange: moneyWire.describe('Signed change of the committed balance'),
    balanceAfter: z
      .object({ available: moneyWire, committed: moneyWire })
      .describe("The account's balance in this currency right after the entry"),
    cause: z
      .object({
        type: z
          .enum(BALANCE_CAUSE_TYPES)
          .describe('HOLD (a payout hold), DEPOSIT (a deposit), FUND_IN (a sandbox fund-in), DRAW (a credit-line draw)'),
        id: z.string().describe('The hold id, the deposit id, the fund-in reference, or the draw id'),
      })
      .describe('What caused the entry'),
    invoiceId: z
      .string()
      .nullable()
      .describe(
        'The invoice this money paid, or was sent for: an INVOICE_PAYMENT entry, or a fixed route’s sweep the invoice took ' +
          '(cause TRANSFER); null otherwise',
      ),
    transactionId: z.string().describe('The ledger transaction the entry records (what `ledger verify` names)'),
    description: z.string().describe('A human-readable description'),
    createdAt: z.string().describe('When the movement happened (ISO 8601)'),
  })
  .describe('An entry of the balance history')

export type EntryRow = {
  id: string
  account_id: string
  seq: string
  currency: string
  type: (typeof BALANCE_ENTRY_TYPES)[number]
  available_change: string
  committed_change: string
  available_after: string
  committed_after: string
  cause_type: (typeof BALANCE_CAUSE_TYPES)[number]
  cause_id: string
  description: string
  transaction_id: string
  created_at: string
}

/** `invoiceOfTransfer`: the invoice each swept transfer of the page paid (queries.ts invoicesPaidBy). */
export function toBalanceTransaction(
  row: EntryRow,
  invoiceOfTransfer: ReadonlyMap<string, string> = new Map(),
): z.infer<typeof balanceTransactionResource> {
  const available = BigInt(row.available_change)
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    amount: money(row.currency, available !== 0n ? available : BigInt(row.committed_change)),
    availableChange: money(row.currency, available),
    committedChange: money(row.currency, row.committed_change),
    balanceAfter: { available: money(row.currency, row.available_after), committed: money(row.currency, row.committed_after) },
    cause: { type: row.cause_type, id: row.cause_id },
    invoiceId: row.cause_type === 'INVOICE_PAYMENT' ? row.cause_id : (invoiceOfTransfer.get(row.cause_id) ?? null),
    transactionId: row.transaction_id,
    description: row.description,
    createdAt: row.created_at,
  }
}

/** An open hold, as a POST .../holds answers it (domain/account/holdResource.ts): HELD until it settles or is released. */
export const holdResource = holdResourceSchema

export type HoldRow = { account_id: string; hold_id: string; seq: string; currency: string; amount: string; created_at: string }

export const toHold = (row: HoldRow): HoldResource => ({
  id: row.hold_id,
  accountId: row.account_id,
  status: 'HELD',
  amount: money(row.currency, row.amount),
  updatedAt: row.created_at,
})

export const treasuryResource = z
  .object({
    customerId: z.string().describe('The customer'),
    accounts: z
      .array(
        z.object({
          accountId: z.string().describe('A balance account of the customer'),
          type: z.string().describe('INFINITE_BANK (USD) or INFINITE_WALLET (stablecoin)'),
          balances: z.array(currencyBalanceResource).describe('Its balance per currency'),
        }),
      )
      .describe("The customer's open balance accounts (closed ones hold nothing), in id order, at most 100"),
    hasMoreAccounts: z
      .boolean()
      .describe('True when the customer has more open balance accounts than listed (totals still count them all)'),
    totals: z.array(currencyBalanceResource).describe("Per currency, the sums over all the customer's open balance accounts"),
    asOf: z.string().nullable().describe('The time of the latest movement on these accounts (ISO 8601); null when the customer has none'),
  })
  .describe("A customer's treasury: its balance accounts with their balances, and totals per currency")
