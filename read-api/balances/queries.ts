// Reads of the balances read model, always scoped to one organization and, under X-On-Behalf-Of,
// to one customer: an account of another organization or another customer (or the organization's
// own, under X-On-Behalf-Of) is not found.
import { type Kysely, sql } from 'kysely'
import { invalid, notFound } from '../../domain/errors.js'
import { invalidCursor } from '../../http/pagination/limitCursorPage.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { isoTimestamp } from '../sql/isoTimestamp.js'
import type { BalanceRow, EntryRow, HoldRow } from './resources.js'

export type Scope = { organizationId: string; onBehalfOf: string | undefined }

export const TREASURY_LIMITS = { maxAccounts: 100 } as const

const inScope = (scope: Scope, row: { organization_id: string; customer_id: string | null }) =>
  row.organization_id === scope.organizationId && (scope.onBehalfOf === undefined || row.customer_id === scope.onBehalfOf)

/** `updatedAt`: the time of the last movement the balance reflects (its opening before any). */
export type BalanceAccount = { accountId: string; entryCount: bigint; updatedAt: string }

/**
 * The balance account `accountId` in scope; 404 when there is none, 422 account_holds_no_balance
 * when the account exists (in scope) but holds no balance (an external account, say).
 */
export async function balanceAccountOr4xx(db: Kysely<ReadDatabase>, scope: Scope, accountId: string): Promise<BalanceAccount> {
  const row = await db
    .selectFrom('balance_accounts')
    .select(['account_id', 'organization_id', 'customer_id', 'entry_count', isoTimestamp('updated_at').as('updated_at')])
    .where('account_id', '=', accountId)
    .where('organization_id', '=', scope.organizationId)
    .executeTakeFirst()
  if (row && inScope(scope, row)) return { accountId, entryCount: BigInt(row.entry_count), updatedAt: row.updated_at }
  if (!row) {
    const other = await db
      .selectFrom('accounts')
      .select(['organization_id', 'customer_id', 'holds_balance'])
      .where('id', '=', accountId)
      .where('organization_id', '=', scope.organizationId)
      .executeTakeFirst()
    if (other && inScope(scope, other) && !other.holds_balance)
      throw invalid('account_holds_no_balance', `Account ${accountId} does not hold a balance`, [
        { field: 'id', message: 'must be a balance account (holdsBalance true)', value: accountId },
      ])
  }
  throw notFound('Account', accountId)
}

export async function balancesOf(db: Kysely<ReadDatabase>, accountIds: string[]): Promise<(BalanceRow & { account_id: string })[]> {
  if (accountIds.length === 0) return []
  return db
    .selectFrom('balances')
    .select(['account_id', 'currency', sql<string>`available::text`.as('available'), sql<string>`committed::text`.as('committed')])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .orderBy('currency')
    .execute()
}

/** One page plus one row of the history, newest first, after entry `after` (its sequence) when given. */
export async function listEntries(db: Kysely<ReadDatabase>, account: BalanceAccount, limit: number, after?: bigint): Promise<EntryRow[]> {
  if (after !== undefined) {
    const found = await db
      .selectFrom('balance_entries')
      .select('seq')
      .where('account_id', '=', account.accountId)
      .where('seq', '=', after.toString())
      .executeTakeFirst()
    if (!found) throw invalidCursor()
  }
  let q = db
    .selectFrom('balance_entries')
    .select([
      'id',
      'account_id',
      sql<string>`seq::text`.as('seq'),
      'currency',
      sql<EntryRow['type']>`type`.as('type'),
      sql<string>`available_change::text`.as('available_change'),
      sql<string>`committed_change::text`.as('committed_change'),
      sql<string>`available_after::text`.as('available_after'),
      sql<string>`committed_after::text`.as('committed_after'),
      sql<EntryRow['cause_type']>`cause_type`.as('cause_type'),
      'cause_id',
      'description',
      'transaction_id',
      isoTimestamp('created_at').as('created_at'),
    ])
    .where('account_id', '=', account.accountId)
  if (after !== undefined) q = q.where('seq', '<', after.toString())
  return (
    q
      // The column, not the output's text copy of it (which would sort 9 after 55).
      .orderBy('balance_entries.seq', 'desc')
      .limit(limit + 1)
      .execute()
  )
}

/**
 * The invoices that took the given transfers as payments (a fixed route's sweep into this account): each transfer's
 * invoice. One indexed lookup by the account, then the invoices' payments (at most 100 each).
 */
export async function invoicesPaidBy(
  db: Kysely<ReadDatabase>,
  account: BalanceAccount,
  transferIds: readonly string[],
): Promise<Map<string, string>> {
  if (transferIds.length === 0) return new Map()
  // The account is the organization's (balanceAccountOr4xx), and so is every invoice paying into it.
  const { rows } = await sql<{ invoice_id: string; transfer_id: string }>`
    SELECT i.id AS invoice_id, p->>'depositReference' AS transfer_id
    FROM invoices i, jsonb_array_elements(i.state->'payments') p
    WHERE i.balance_account_id = ${account.accountId} AND p->>'source' = 'FIXED_ROUTE'
      AND p->>'depositReference' = ANY(${[...transferIds]})`.execute(db)
  return new Map(rows.map((r) => [r.transfer_id, r.invoice_id]))
}

/** One page plus one row of the open holds, newest first, after the hold placed by entry `after` when given. */
export async function listHolds(db: Kysely<ReadDatabase>, account: BalanceAccount, limit: number, after?: bigint): Promise<HoldRow[]> {
  // Holds close between pages, so the cursor names a position (an entry of this account), not a row.
  if (after !== undefined && (after < 1n || after > account.entryCount)) throw invalidCursor()
  let q = db
    .selectFrom('balance_holds')
    .select([
      'account_id',
      'hold_id',
      sql<string>`seq::text`.as('seq'),
      'currency',
      sql<string>`amount::text`.as('amount'),
      isoTimestamp('created_at').as('created_at'),
    ])
    .where('account_id', '=', account.accountId)
  if (after !== undefined) q = q.where('seq', '<', after.toString())
  return q
    .orderBy('balance_holds.seq', 'desc')
    .limit(limit + 1)
    .execute()
}

/** The customer's open balance accounts (at most maxAccounts + 1, the probe) and its totals per currency. */
export async function treasuryOf(db: Kysely<ReadDatabase>, scope: Scope, customerId: string) {
  if (scope.onBehalfOf !== undefined && scope.onBehalfOf !== customerId) throw notFound('Customer', customerId)
  const customer = await db
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', customerId)
    .executeTakeFirst()
  if (!customer) throw notFound('Customer', customerId)
  const open = db
    .selectFrom('balance_accounts')
    .where('organization_id', '=', scope.organizationId)
    .where('customer_id', '=', customerId)
    .where('closed_at', 'is', null)
  const accounts = await open
    .select(['account_id', 'type'])
    .orderBy('account_id')
    .limit(TREASURY_LIMITS.maxAccounts + 1)
    .execute()
  const latest = await open
    .select(sql<string | null>`to_char(max(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('at'))
    .executeTakeFirst()
  const totals = await db
    .selectFrom('balances')
    .where('account_id', 'in', open.select('account_id'))
    .select(['currency', sql<string>`sum(available)::text`.as('available'), sql<string>`sum(committed)::text`.as('committed')])
    .groupBy('currency')
    .orderBy('currency')
    .execute()
  return { accounts, totals, asOf: latest?.at ?? null }
}
