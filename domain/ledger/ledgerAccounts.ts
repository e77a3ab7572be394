// The ledger's accounts: every place money can be, named explicitly so conservation is a sum.
// Each balance account has two: what is available to pay out and what is committed to in-flight
// payouts (open holds). The rest belong to the platform: the outside world (money that entered or
// left the system), clearing (a transfer's money between two balance accounts of one currency: taken
// from one, not yet credited to the other), suspense (money received that could not land where it was
// going: held, with its transfer IN_REVIEW, until an operator resolves it), fees, the credit line, and
// the sandbox's token mint (tokens minted into a treasury wallet by a fixed route's sweep), and FX:
// a trade's money between its deposit and its payout (fx_clearing, per currency) and the spread the
// conversions keep (fx_spread, revenue). Every
// clearing and suspense posting belongs to one transfer, named in its transaction's id, so `ledger
// verify` can prove each transfer's money in them is in flight or held.
import { z } from 'zod'

export const SYSTEM_LEDGER_ACCOUNTS = ['world', 'clearing', 'suspense', 'fees', 'credit_line', 'mint', 'fx_clearing', 'fx_spread'] as const
export type SystemLedgerAccount = (typeof SYSTEM_LEDGER_ACCOUNTS)[number]

export const LEDGER_ACCOUNT_LIMITS = { maxNameLength: 120 } as const

/** `available:<accountId>`, `committed:<accountId>`, or a system account's name. */
export type LedgerAccount = string & { readonly __brand: 'LedgerAccount' }

const ACCOUNT_ID = /^[a-z]{2,4}_[0-9a-z]{26}$/

export const availableOf = (accountId: string): LedgerAccount => checked(`available:${accountId}`)
export const committedOf = (accountId: string): LedgerAccount => checked(`committed:${accountId}`)
export const system = (name: SystemLedgerAccount): LedgerAccount => name as LedgerAccount

export function isLedgerAccount(name: string): name is LedgerAccount {
  if (name.length > LEDGER_ACCOUNT_LIMITS.maxNameLength) return false
  if ((SYSTEM_LEDGER_ACCOUNTS as readonly string[]).includes(name)) return true
  const [side, accountId, ...rest] = name.split(':')
  return rest.length === 0 && (side === 'available' || side === 'committed') && ACCOUNT_ID.test(accountId ?? '')
}

function checked(name: string): LedgerAccount {
  if (!isLedgerAccount(name)) throw new RangeError(`not a ledger account: ${name.slice(0, LEDGER_ACCOUNT_LIMITS.maxNameLength)}`)
  return name
}

export const ledgerAccountSchema = z
  .string()
  .max(LEDGER_ACCOUNT_LIMITS.maxNameLength)
  .refine(isLedgerAccount, `must be a ledger account (available:<id>, committed:<id>, ${SYSTEM_LEDGER_ACCOUNTS.join(', ')})`)
  .transform((name) => name as LedgerAccount)
