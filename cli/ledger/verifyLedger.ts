// `ledger verify`: recomputes the ledger from every stored event (LedgerFold, paged through $all)
// and checks it four ways: each transaction sums to zero per currency, so per organization and
// currency the balances, clearing, suspense, fees, the credit line, the mint and the outside world sum
// to zero (the report gives those totals per organization); the money in clearing and suspense
// belongs to transfers that are in flight or hold it (transitCheck.ts); each balance account's
// available and committed in the balances read model equal the sums of their postings (and the
// committed one equals its open holds); and, for a sample of accounts (all with `sample: 'all'`), the
// account aggregate's own state (its stream replayed through the decider) agrees too. The read model
// is compared at the position its checkpoint names, read in the same snapshot as its rows, so a
// server writing meanwhile causes no false alarm.
import { randomInt } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { availableIn, committedIn } from '../../domain/balance-account/funds.js'
import { SYSTEM_LEDGER_ACCOUNTS, availableOf, committedOf } from '../../domain/ledger/index.js'
import { parseEventData } from '../../events/catalog.js'
import { inReadModelSnapshot, readModelPosition } from '../../projections/runtime/readModelSnapshot.js'
import type { ProjectionMode } from '../../projections/runtime/projectionMode.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streamPages } from '../../events/store/streamPages.js'
import { streams } from '../../events/streams.js'
import { balancesProjector } from '../../projections/balances.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { LedgerFold, type MalformedTransaction, type UnattributedTransaction, type UnbalancedTransaction, splitKey } from './ledgerFold.js'
import { type TransitDiscrepancy, checkTransit } from './transitCheck.js'

export const LEDGER_VERIFY_LIMITS = {
  /** Events read from $all per page. */
  readBatch: 1_000,
  maxBatches: 10_000_000,
  /** Read-model rows compared per page. */
  comparePage: 1_000,
  /** Accounts whose aggregate state is replayed from their stream, by default. */
  defaultSample: 100,
} as const

type Side = 'available' | 'committed'

export type Discrepancy =
  | UnbalancedTransaction
  | MalformedTransaction
  | UnattributedTransaction
  | TransitDiscrepancy
  | { kind: 'organization_not_balanced'; organizationId: string; currency: string; sum: string }
  | { kind: 'negative_balance'; ledgerAccount: string; currency: string; ledger: string }
  | { kind: 'balance_mismatch'; accountId: string; currency: string; side: Side; readModel: string; ledger: string }
  | { kind: 'missing_balance_row'; accountId: string; currency: string; side: Side; ledger: string }
  | { kind: 'committed_not_open_holds'; accountId: string; currency: string; committed: string; openHolds: string }
  | { kind: 'aggregate_mismatch'; accountId: string; currency: string; side: Side; aggregate: string; ledger: string }
  | { kind: 'aggregate_unreadable'; accountId: string; problem: string }

export type CurrencyTotals = {
  currency: string
  /** Every ledger account's balance summed: zero when every transaction balances. */
  sum: string
  balanceAccountsAvailable: string
  balanceAccountsCommitted: string
} & Record<(typeof SYSTEM_LEDGER_ACCOUNTS)[number], string>

export type LedgerReport = {
  consistent: boolean
  /** The $all position the ledger was folded through (the balances read model's checkpoint). */
  checkedThrough: Position
  events: number
  transactions: number
  totals: CurrencyTotals[]
  /** The same totals for each organization (its events' transactions): each currency sums to zero. */
  organizations: { organizationId: string; totals: CurrencyTotals[] }[]
  /** Transfers with money in clearing or suspense: on their way (a workflow step to run), or held in suspense. */
  transfersInFlight: number
  transfersHeld: number
  balanceRowsCompared: number
  aggregatesCompared: number
  discrepancy: Discrepancy | null
}

type Deps = { store: EventStore; db: Kysely<ReadDatabase>; mode: ProjectionMode }

/** Folds $all from `from` (exclusive) through `until` (inclusive); returns the last position folded. */
async function foldThrough(store: EventStore, fold: LedgerFold, from: Position, until: Position): Promise<Position> {
  let position = from
  for (let i = 0; i < LEDGER_VERIFY_LIMITS.maxBatches; i++) {
    const page = await store.readAll({ from: position || undefined, maxCount: LEDGER_VERIFY_LIMITS.readBatch })
    if (page.length === 0) return position
    for (const event of page) {
      if (store.comparePositions(event.position, until) > 0) return position
      fold.add(event)
      position = event.position
    }
  }
  throw new Error(`ledger verify read more than ${LEDGER_VERIFY_LIMITS.maxBatches} pages`)
}

function totalsOf(sums: ReadonlyMap<string, bigint>): CurrencyTotals[] {
  const byCurrency = new Map<string, Map<string, bigint>>()
  for (const [key, amount] of sums) {
    const { ledgerAccount, currency } = splitKey(key)
    const column = ledgerAccount.startsWith('available:')
      ? 'balanceAccountsAvailable'
      : ledgerAccount.startsWith('committed:')
        ? 'balanceAccountsCommitted'
        : ledgerAccount
    const row = byCurrency.get(currency) ?? new Map<string, bigint>()
    row.set(column, (row.get(column) ?? 0n) + amount)
    row.set('sum', (row.get('sum') ?? 0n) + amount)
    byCurrency.set(currency, row)
  }
  return [...byCurrency.keys()].sort().map((currency) => {
    const row = byCurrency.get(currency)!
    const get = (column: string) => (row.get(column) ?? 0n).toString()
    return {
      currency,
      sum: get('sum'),
      ...(Object.fromEntries(SYSTEM_LEDGER_ACCOUNTS.map((name) => [name, get(name)])) as Record<
        (typeof SYSTEM_LEDGER_ACCOUNTS)[number],
        string
      >),
      balanceAccountsAvailable: get('balanceAccountsAvailable'),
      balanceAccountsCommitted: get('balanceAccountsCommitted'),
    }
  })
}

/** Every organization's ledger sums to zero in each currency: no money moved between tenants or from nowhere. */
function unbalancedOrganization(fold: LedgerFold): Discrepancy | undefined {
  for (const [organizationId, sums] of fold.byOrganization)
    for (const t of totalsOf(sums))
      if (t.sum !== '0') return { kind: 'organization_not_balanced', organizationId, currency: t.currency, sum: t.sum }
  return undefined
}

function negativeBalance(fold: LedgerFold): Discrepancy | undefined {
  for (const [key, amount] of fold.sums) {
    const { ledgerAccount, currency } = splitKey(key)
    if (amount < 0n && (ledgerAccount.startsWith('available:') || ledgerAccount.startsWith('committed:')))
      return { kind: 'negative_balance', ledgerAccount, currency, ledger: amount.toString() }
  }
  return undefined
}

type Comparison = { compared: number; discrepancy: Discrepancy | undefined; sample: string[] }

/** Reservoir sampling of account ids as they stream past: each has the same chance. */
function reservoir(size: number | 'all') {
  const kept: string[] = []
  let seen = 0
  return {
    offer(id: string) {
      seen++
      if (size === 'all' || kept.length < size) kept.push(id)
      else {
        const slot = randomInt(seen)
        if (slot < size) kept[slot] = id
      }
    },
    kept: () => kept,
  }
}

/** The read model against the fold, page by page in (account, currency) order, inside the caller's snapshot. */
async function compareReadModel(trx: Kysely<ReadDatabase>, fold: LedgerFold, sampleSize: number | 'all'): Promise<Comparison> {
  const seen = new Set<string>()
  const sample = reservoir(sampleSize)
  let compared = 0
  let discrepancy: Discrepancy | undefined
  let after: { account_id: string; currency: string } | undefined
  let lastAccount: string | undefined
  for (;;) {
    let q = trx
      .selectFrom('balances')
      .select(['account_id', 'currency', sql<string>`available::text`.as('available'), sql<string>`committed::text`.as('committed')])
    if (after) {
      const { account_id, currency } = after
      q = q.where((eb) =>
        eb.or([eb('account_id', '>', account_id), eb.and([eb('account_id', '=', account_id), eb('currency', '>', currency)])]),
      )
    }
    const rows = await q.orderBy('account_id').orderBy('currency').limit(LEDGER_VERIFY_LIMITS.comparePage).execute()
    for (const row of rows) {
      compared++
      if (row.account_id !== lastAccount) sample.offer(row.account_id)
      lastAccount = row.account_id
      for (const side of ['available', 'committed'] as const) {
        const ledgerAccount = side === 'available' ? availableOf(row.account_id) : committedOf(row.account_id)
        seen.add(`${ledgerAccount}|${row.currency}`)
        const ledger = fold.balance(ledgerAccount, row.currency)
        if (!discrepancy && BigInt(row[side]) !== ledger)
          discrepancy = {
            kind: 'balance_mismatch',
            accountId: row.account_id,
            currency: row.currency,
            side,
            readModel: row[side],
            ledger: ledger.toString(),
          }
      }
    }
    if (rows.length < LEDGER_VERIFY_LIMITS.comparePage) break
    after = rows[rows.length - 1]!
  }
  if (!discrepancy) {
    // Money on a balance account's ledger account that the read model does not show at all.
    for (const [key, amount] of fold.sums) {
      const { ledgerAccount, currency } = splitKey(key)
      const [side, accountId] = ledgerAccount.split(':')
      if ((side === 'available' || side === 'committed') && accountId && amount !== 0n && !seen.has(key)) {
        discrepancy = { kind: 'missing_balance_row', accountId, currency, side, ledger: amount.toString() }
        break
      }
    }
  }
  if (!discrepancy) {
    const { rows } = await sql<{ account_id: string; currency: string; committed: string; holds: string }>`
      SELECT b.account_id, b.currency, b.committed::text AS committed, coalesce(h.total, 0)::text AS holds
      FROM balances b LEFT JOIN (SELECT account_id, currency, sum(amount) AS total FROM balance_holds GROUP BY 1, 2) h
        ON h.account_id = b.account_id AND h.currency = b.currency
      WHERE b.committed <> coalesce(h.total, 0)
      ORDER BY 1, 2 LIMIT 1`.execute(trx)
    const row = rows[0]
    if (row)
      discrepancy = {
        kind: 'committed_not_open_holds',
        accountId: row.account_id,
        currency: row.currency,
        committed: row.committed,
        openHolds: row.holds,
      }
  }
  return { compared, discrepancy, sample: sample.kept() }
}

/** Each sampled account's stream through the decider, up to `through`, against the fold. */
async function compareAggregates(
  store: EventStore,
  fold: LedgerFold,
  accountIds: string[],
  through: Position,
): Promise<Discrepancy | undefined> {
  for (const accountId of accountIds.sort()) {
    let state: AccountState = accountDecider.initialState()
    try {
      // Page by page: one read returns at most a page, and a busy account's stream holds more.
      read: for await (const page of streamPages(store, streams.account(accountId))) {
        for (const e of page) {
          if (store.comparePositions(e.position, through) > 0) break read
          state = accountDecider.evolve(state, { type: e.type, data: parseEventData(e) } as AccountEvent)
        }
      }
    } catch (error) {
      return { kind: 'aggregate_unreadable', accountId, problem: error instanceof Error ? error.message : String(error) }
    }
    if (state.status === 'none' || !state.funds)
      return { kind: 'aggregate_unreadable', accountId, problem: 'no balance account on its stream' }
    for (const currency of state.funds.currencies)
      for (const side of ['available', 'committed'] as const) {
        const aggregate = side === 'available' ? availableIn(state.funds, currency) : committedIn(state.funds, currency)
        const ledger = fold.balance(side === 'available' ? availableOf(accountId) : committedOf(accountId), currency)
        if (aggregate !== ledger)
          return { kind: 'aggregate_mismatch', accountId, currency, side, aggregate: aggregate.toString(), ledger: ledger.toString() }
      }
  }
  return undefined
}

export async function verifyLedger(deps: Deps, options: { sample?: number | 'all' } = {}): Promise<LedgerReport> {
  const { store, db, mode } = deps
  const sampleSize = options.sample ?? LEDGER_VERIFY_LIMITS.defaultSample
  const fold = new LedgerFold()
  // Most of the history first, outside any transaction; then the rest inside the read model's snapshot.
  let position = await foldThrough(store, fold, '' as Position, await readModelPosition(db, mode, balancesProjector.name))
  const compared = await inReadModelSnapshot(db, mode, balancesProjector.name, async (trx, checkpoint) => {
    if (store.comparePositions(checkpoint, position) < 0)
      throw new Error('the balances checkpoint moved back (a rebuild swapped in?): run again')
    position = await foldThrough(store, fold, position, checkpoint)
    const transit = await checkTransit(store, trx, fold, checkpoint)
    return { ...(await compareReadModel(trx, fold, sampleSize)), checkpoint, transit }
  })
  const aggregates = await compareAggregates(store, fold, compared.sample, compared.checkpoint)
  // The first discrepancy in this order: a bad transaction explains every difference after it.
  const discrepancy =
    fold.firstUnbalanced ??
    fold.firstMalformed ??
    fold.firstUnattributed ??
    unbalancedOrganization(fold) ??
    negativeBalance(fold) ??
    compared.transit.discrepancy ??
    compared.discrepancy ??
    aggregates
  return {
    consistent: discrepancy === undefined,
    checkedThrough: compared.checkpoint,
    events: fold.events,
    transactions: fold.transactions,
    totals: totalsOf(fold.sums),
    organizations: [...fold.byOrganization.keys()].sort().map((organizationId) => ({
      organizationId,
      totals: totalsOf(fold.byOrganization.get(organizationId)!),
    })),
    transfersInFlight: compared.transit.inFlight,
    transfersHeld: compared.transit.held,
    balanceRowsCompared: compared.compared,
    aggregatesCompared: compared.sample.length,
    discrepancy: discrepancy ?? null,
  }
}
