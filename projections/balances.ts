// Projects balances: per balance account (opened with holdsBalance) its available and committed
// minor units per currency, its open holds, and its history (one entry per funds event, with the
// balance after it). A hot account takes hundreds of holds a second and the command path waits for
// this projector (read-your-writes), so a batch costs two statements whatever its size: one read of
// the touched accounts, then one statement whose data-modifying CTEs write every table from one
// JSON parameter each (the statement text never changes, so it is planned once).
import { type Kysely, sql } from 'kysely'
import { CREDIT_CAUSE_TYPES, creditCauseOf } from '../domain/account/creditCause.js'
import type { AccountEvent } from '../domain/account/events.js'
import type { FundsEvent } from '../domain/balance-account/fundsEvents.js'
import { type LedgerTransaction, availableOf, committedOf } from '../domain/ledger/index.js'
import type { RecordedEvent } from '../events/store/port.js'
import { parsedEvent } from './parsedEvent.js'
import type { ReadDatabase } from './schema.js'
import type { Projector } from './runtime/projector.js'

export const BALANCE_ENTRY_TYPES = ['DEPOSIT', 'DRAW', 'HOLD', 'RELEASE', 'PAYOUT', 'REVERSAL'] as const
export type BalanceEntryType = (typeof BALANCE_ENTRY_TYPES)[number]
export const BALANCE_CAUSE_TYPES = [...CREDIT_CAUSE_TYPES, 'HOLD'] as const
export type BalanceCauseType = (typeof BALANCE_CAUSE_TYPES)[number]

const FUNDS_EVENT_TYPES = ['FundsCredited', 'FundsHeld', 'HoldSettled', 'HoldReleased', 'CreditReversed'] as const
const HANDLED = new Set<string>(['AccountOpened', 'AccountClosed', ...FUNDS_EVENT_TYPES])
const isFundsEvent = (event: AccountEvent): event is FundsEvent => (FUNDS_EVENT_TYPES as readonly string[]).includes(event.type)

/** The history entry id of a stored event: stable across rebuilds, and the same event as the webhook's evt_ id. */
export const entryIdOf = (storedEventId: string) => `btx_${storedEventId.replaceAll('-', '')}`

// ---- Evolve (pure) ----------------------------------------------------------------------------
type AccountRow = {
  account_id: string
  organization_id: string
  customer_id: string | null
  type: string
  entry_count: bigint
  opened_at: string
  updated_at: string
  closed_at: string | null
}
type BalanceRow = { available: bigint; committed: bigint }
type EntryRow = {
  account_id: string
  seq: string
  id: string
  currency: string
  type: BalanceEntryType
  available_change: string
  committed_change: string
  available_after: string
  committed_after: string
  cause_type: BalanceCauseType
  cause_id: string
  description: string
  transaction_id: string
  created_at: string
}
type HoldRow = { account_id: string; hold_id: string; seq: string; currency: string; amount: string; created_at: string }

/** What the batch changes, built in memory from the rows read and the events. */
type Work = {
  accounts: Map<string, AccountRow>
  /** Keyed by `<accountId>|<currency>`. */
  balances: Map<string, BalanceRow>
  entries: EntryRow[]
  placedHolds: Map<string, HoldRow>
  closedHolds: { account_id: string; hold_id: string }[]
  touched: Set<string>
}

const balanceKey = (accountId: string, currency: string) => `${accountId}|${currency}`
const holdKey = (accountId: string, holdId: string) => `${accountId}|${holdId}`

/** The change a transaction makes to one of the account's two ledger accounts, and its currency. */
function changeOf(tx: LedgerTransaction, ledgerAccount: string): bigint {
  return tx.postings.filter((p) => p.ledgerAccount === ledgerAccount).reduce((sum, p) => sum + BigInt(p.amountMinor), 0n)
}

function entryTypeOf(event: FundsEvent): BalanceEntryType {
  switch (event.type) {
    case 'FundsCredited':
      return event.data.transaction.kind === 'DRAW' ? 'DRAW' : 'DEPOSIT'
    case 'FundsHeld':
      return 'HOLD'
    case 'HoldSettled':
      return 'PAYOUT'
    case 'HoldReleased':
      return 'RELEASE'
    case 'CreditReversed':
      return 'REVERSAL'
  }
}

function causeOf(event: FundsEvent): { type: BalanceCauseType; id: string } {
  if (event.type === 'FundsCredited') return creditCauseOf(event.data.cause, event.data.transaction.kind === 'DRAW')
  if (event.type === 'CreditReversed') return creditCauseOf(event.data.cause, false)
  return { type: 'HOLD', id: event.data.holdId }
}

function opened(work: Work, event: Extract<AccountEvent, { type: 'AccountOpened' }>): void {
  const d = event.data
  if (!d.holdsBalance) return
  work.accounts.set(d.accountId, {
    account_id: d.accountId,
    organization_id: d.organizationId,
    customer_id: d.customerId,
    type: d.type,
    entry_count: 0n,
    opened_at: d.at,
    updated_at: d.at,
    closed_at: null,
  })
  for (const currency of d.currencyCodes) work.balances.set(balanceKey(d.accountId, currency), { available: 0n, committed: 0n })
  work.touched.add(d.accountId)
}

function funds(work: Work, event: FundsEvent, storedEventId: string): void {
  const accountId = event.data.accountId
  const account = work.accounts.get(accountId)
  if (!account) throw new Error(`${event.type} for account ${accountId}, which has no balance row`)
  const tx = event.data.transaction
  const availableChange = changeOf(tx, availableOf(accountId))
  const committedChange = changeOf(tx, committedOf(accountId))
  const own = tx.postings.find((p) => p.ledgerAccount === availableOf(accountId) || p.ledgerAccount === committedOf(accountId))
  if (!own) throw new Error(`${event.type} ${tx.id} posts nothing to account ${accountId}`)
  const key = balanceKey(accountId, own.currency)
  const before = work.balances.get(key)
  if (!before) throw new Error(`${event.type} for account ${accountId} in ${own.currency}, which it does not hold`)
  const after = { available: before.available + availableChange, committed: before.committed + committedChange }
  if (after.available < 0n || after.committed < 0n) throw new Error(`${event.type} ${tx.id} takes account ${accountId} below zero`)
  work.balances.set(key, after)
  const seq = account.entry_count + 1n
  work.accounts.set(accountId, { ...account, entry_count: seq, updated_at: event.data.at })
  work.touched.add(accountId)
  const cause = causeOf(event)
  work.entries.push({
    account_id: accountId,
    seq: seq.toString(),
    id: entryIdOf(storedEventId),
    currency: own.currency,
    type: entryTypeOf(event),
    available_change: availableChange.toString(),
    committed_change: committedChange.toString(),
    available_after: after.available.toString(),
    committed_after: after.committed.toString(),
    cause_type: cause.type,
    cause_id: cause.id,
    description: tx.description,
    transaction_id: tx.id,
    created_at: event.data.at,
  })
  if (event.type === 'FundsHeld') {
    const hold = {
      account_id: accountId,
      hold_id: event.data.holdId,
      seq: seq.toString(),
      currency: own.currency,
      created_at: event.data.at,
    }
    work.placedHolds.set(holdKey(accountId, event.data.holdId), { ...hold, amount: committedChange.toString() })
  } else if (event.type === 'HoldSettled' || event.type === 'HoldReleased') {
    // A hold placed and closed in the same batch never reaches the table.
    if (!work.placedHolds.delete(holdKey(accountId, event.data.holdId)))
      work.closedHolds.push({ account_id: accountId, hold_id: event.data.holdId })
  }
}

// ---- Read and write ---------------------------------------------------------------------------
type StoredRow = Omit<AccountRow, 'entry_count'> & {
  entry_count: string
  currency: string | null
  available: string | null
  committed: string | null
}

/** The touched accounts' rows and balances, in one statement. */
async function load(db: Kysely<ReadDatabase>, accountIds: string[], work: Work): Promise<void> {
  if (accountIds.length === 0) return
  const { rows } = await sql<StoredRow>`SELECT a.account_id, a.organization_id, a.customer_id, a.type, a.entry_count::text AS entry_count,
      to_char(a.opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS opened_at,
      to_char(a.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at,
      to_char(a.closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS closed_at,
      b.currency, b.available::text AS available, b.committed::text AS committed
    FROM balance_accounts a LEFT JOIN balances b ON b.account_id = a.account_id
    WHERE a.account_id = ANY(${accountIds}::text[])`.execute(db)
  for (const { currency, available, committed, entry_count, ...account } of rows) {
    work.accounts.set(account.account_id, { ...account, entry_count: BigInt(entry_count) })
    if (currency !== null && available !== null && committed !== null)
      work.balances.set(balanceKey(account.account_id, currency), { available: BigInt(available), committed: BigInt(committed) })
  }
}

const json = (rows: unknown[]) => JSON.stringify(rows)

/** Every change of the batch in one statement (each CTE one table, each fed by one JSON parameter). */
async function write(db: Kysely<ReadDatabase>, work: Work): Promise<void> {
  const accounts = [...work.touched].map((id) => {
    const a = work.accounts.get(id)!
    return { ...a, entry_count: a.entry_count.toString() }
  })
  const balances = [...work.balances]
    .filter(([key]) => work.touched.has(key.slice(0, key.lastIndexOf('|'))))
    .map(([key, b]) => ({
      account_id: key.slice(0, key.lastIndexOf('|')),
      currency: key.slice(key.lastIndexOf('|') + 1),
      available: b.available.toString(),
      committed: b.committed.toString(),
    }))
  await sql`WITH
    accounts AS (
      INSERT INTO balance_accounts (account_id, organization_id, customer_id, type, entry_count, opened_at, updated_at, closed_at)
      SELECT * FROM json_to_recordset(${json(accounts)}::json) AS r(account_id text, organization_id text, customer_id text,
        type text, entry_count bigint, opened_at timestamptz, updated_at timestamptz, closed_at timestamptz)
      ON CONFLICT (account_id) DO UPDATE
        SET entry_count = excluded.entry_count, updated_at = excluded.updated_at, closed_at = excluded.closed_at),
    amounts AS (
      INSERT INTO balances (account_id, currency, available, committed)
      SELECT * FROM json_to_recordset(${json(balances)}::json) AS r(account_id text, currency text, available numeric, committed numeric)
      ON CONFLICT (account_id, currency) DO UPDATE SET available = excluded.available, committed = excluded.committed),
    entries AS (
      INSERT INTO balance_entries (account_id, seq, id, currency, type, available_change, committed_change, available_after,
        committed_after, cause_type, cause_id, description, transaction_id, created_at)
      SELECT * FROM json_to_recordset(${json(work.entries)}::json) AS r(account_id text, seq bigint, id text, currency text, type text,
        available_change numeric, committed_change numeric, available_after numeric, committed_after numeric, cause_type text,
        cause_id text, description text, transaction_id text, created_at timestamptz)),
    placed AS (
      INSERT INTO balance_holds (account_id, hold_id, seq, currency, amount, created_at)
      SELECT * FROM json_to_recordset(${json([...work.placedHolds.values()])}::json) AS r(account_id text, hold_id text, seq bigint,
        currency text, amount numeric, created_at timestamptz))
    DELETE FROM balance_holds h USING json_to_recordset(${json(work.closedHolds)}::json) AS r(account_id text, hold_id text)
    WHERE h.account_id = r.account_id AND h.hold_id = r.hold_id`.execute(db)
}

/** Work over no rows yet: a batch's, before it loads the accounts its events touch, or a fold's from an account's opening. */
export const newBalanceWork = (): Work => ({
  accounts: new Map(),
  balances: new Map(),
  entries: [],
  placedHolds: new Map(),
  closedHolds: [],
  touched: new Set(),
})

/** Applies one event of an account's stream to the work (events this model does not show change nothing). */
export function applyBalanceEvent(work: Work, event: AccountEvent, storedEventId: string): void {
  if (event.type === 'AccountOpened') opened(work, event)
  else if (event.type === 'AccountClosed') {
    const account = work.accounts.get(event.data.accountId)
    // Accounts without a balance have no row: their closing is no business of this model.
    if (account) {
      work.accounts.set(account.account_id, { ...account, closed_at: event.data.at })
      work.touched.add(account.account_id)
    }
  } else if (isFundsEvent(event)) funds(work, event, storedEventId)
}

/**
 * The balance of `accountId` the rows would hold after the work's events, as the balance read shows it
 * (read-api/balances/routes.ts): its currencies in order, and `updatedAt` (its last movement, or its
 * opening) to the millisecond as the read gets it from Postgres. Undefined when it holds no balance.
 */
export function balanceOfWork(
  work: Work,
  accountId: string,
): { updatedAt: string; balances: { currency: string; available: string; committed: string }[] } | undefined {
  const account = work.accounts.get(accountId)
  if (!account) return undefined
  const balances = [...work.balances]
    .filter(([key]) => key.slice(0, key.lastIndexOf('|')) === accountId)
    .map(([key, b]) => ({
      currency: key.slice(key.lastIndexOf('|') + 1),
      available: b.available.toString(),
      committed: b.committed.toString(),
    }))
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
  return { updatedAt: new Date(account.updated_at).toISOString(), balances }
}

/** Drops what only a batch's write needs (history entries, holds, touched accounts): a long fold keeps the balances alone. */
export function forgetBalanceWrites(work: Work): void {
  work.entries.length = 0
  work.placedHolds.clear()
  work.closedHolds.length = 0
  work.touched.clear()
}

export type BalanceWork = Work

async function applyBalances(db: Kysely<ReadDatabase>, events: RecordedEvent[]): Promise<void> {
  const work = newBalanceWork()
  const opening = new Set<string>()
  const known: string[] = []
  for (const recorded of events) {
    const event = parsedEvent<AccountEvent>(recorded)
    if (event.type === 'AccountOpened') opening.add(event.data.accountId)
    else if (!opening.has(event.data.accountId)) known.push(event.data.accountId)
  }
  await load(db, [...new Set(known)], work)
  for (const recorded of events) applyBalanceEvent(work, parsedEvent<AccountEvent>(recorded), recorded.id)
  if (work.touched.size > 0) await write(db, work)
}

export const balancesProjector: Projector = {
  name: 'balances',
  tables: ['balance_accounts', 'balances', 'balance_entries', 'balance_holds'],
  handles: HANDLED,
  apply: (db, recorded) => applyBalances(db, [recorded]),
  applyMany: (db, events) => applyBalances(db, events),
}
