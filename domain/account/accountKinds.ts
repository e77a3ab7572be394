// What an account is: its kind (which decides its id prefix and its spec `type`), its status, and
// the status machine. Statuses (spec: IN_REVIEW, ACTIVE, CLOSED; transitions "not shown", so ours):
//
//   (none) ──open──► IN_REVIEW   external wallets: an asynchronous review follows
//   (none) ──open──► ACTIVE      balance accounts, external bank accounts (checked when created)
//   IN_REVIEW ──review passed──► ACTIVE
//   IN_REVIEW ──review rejected / closed by the caller──► CLOSED
//   ACTIVE ──closed by the caller (no funds, no holds)──► CLOSED
//   CLOSED: final; an account is never reopened (open a new one)
import { z } from 'zod'
import { ID_PREFIXES } from '../shared/ids.js'

export const ACCOUNT_TYPES = [
  'VIRTUAL_BANK',
  'VIRTUAL_WALLET',
  'INFINITE_BANK',
  'INFINITE_WALLET',
  'EXTERNAL_BANK',
  'EXTERNAL_WALLET',
  'EXTERNAL_PROXY',
  'PROVIDER_BALANCE',
] as const
export type AccountType = (typeof ACCOUNT_TYPES)[number]
export const accountTypeSchema = z.enum(ACCOUNT_TYPES)

export const ACCOUNT_STATUSES = ['IN_REVIEW', 'ACTIVE', 'CLOSED'] as const
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number]
export const accountStatusSchema = z.enum(ACCOUNT_STATUSES)

/** The statuses each status may move to (the table in the header). */
export const ACCOUNT_TRANSITIONS: Readonly<Record<AccountStatus, readonly AccountStatus[]>> = {
  IN_REVIEW: ['ACTIVE', 'CLOSED'],
  ACTIVE: ['CLOSED'],
  CLOSED: [],
}

export const canMove = (from: AccountStatus, to: AccountStatus) => ACCOUNT_TRANSITIONS[from].includes(to)

/** The kinds that are a fixed route's source account. */
export const FIXED_ROUTE_KINDS = ['VIRTUAL_BANK', 'DEPOSIT_WALLET'] as const

/** Why an account was closed. */
export const ACCOUNT_CLOSE_REASONS = ['CLOSED_BY_CALLER', 'REVIEW_REJECTED'] as const
export const accountCloseReasonSchema = z.enum(ACCOUNT_CLOSE_REASONS)

/**
 * The kinds this service opens, each with its id prefix and spec type. A USD balance account is
 * `acc_` (a generic account of the service's bank); a stablecoin balance account is an internal
 * wallet (`inw_`); a fixed route's source account is a virtual bank account (`vba_`) or a deposit
 * wallet (`inw_`, type VIRTUAL_WALLET) that sweeps every deposit to the route's target.
 */
export const ACCOUNT_KINDS = {
  USD_BALANCE: { prefix: ID_PREFIXES.account, type: 'INFINITE_BANK' },
  STABLECOIN_BALANCE: { prefix: ID_PREFIXES.internalWallet, type: 'INFINITE_WALLET' },
  EXTERNAL_BANK: { prefix: ID_PREFIXES.externalBankAccount, type: 'EXTERNAL_BANK' },
  EXTERNAL_WALLET: { prefix: ID_PREFIXES.externalWallet, type: 'EXTERNAL_WALLET' },
  // A fixed route's source account (domain/fixed-route/): fiat deposits at a virtual bank account,
  // crypto deposits at a deposit wallet (an internal wallet, spec: `inw_` for crypto routes).
  VIRTUAL_BANK: { prefix: ID_PREFIXES.virtualBankAccount, type: 'VIRTUAL_BANK' },
  DEPOSIT_WALLET: { prefix: ID_PREFIXES.internalWallet, type: 'VIRTUAL_WALLET' },
} as const satisfies Record<string, { prefix: string; type: AccountType }>
export type AccountKind = keyof typeof ACCOUNT_KINDS

/** Every account id prefix of the spec, for routes that take any account id. */
export const ACCOUNT_ID_PREFIXES = [
  ID_PREFIXES.virtualBankAccount,
  ID_PREFIXES.internalWallet,
  ID_PREFIXES.externalWallet,
  ID_PREFIXES.externalBankAccount,
  ID_PREFIXES.virtualWallet,
  ID_PREFIXES.account,
] as const
