// The second half of conservation: money waiting in clearing or suspense belongs to a transfer that
// explains it, and money in FX clearing to an FX trade that is PROCESSING. Clearing holds a
// transfer's money only while it is in flight (a workflow step about it has not run yet); suspense
// holds it only while the transfer is IN_REVIEW with exactly that money held
// (domain/transfer/suspense.ts), or while an operator's resolution is being credited. "In flight"
// is measured, not guessed: a step is pending while an event about the transfer (its own, or the
// one that last moved its money) lies past the checkpoint of a money workflow that handles it. And
// every transfer the read model shows holding money has it in suspense. A reversal that credits the
// source while the destination keeps its credit (issue 24, D3) leaves clearing negative on a
// finished transfer: caught here.
import { type Kysely, sql } from 'kysely'
import { reverseReclaimedTransfers } from '../../commands/workflows/reverseReclaimedTransfers.js'
import { systemTransfers } from '../../commands/workflows/systemTransfers.js'
import { transferMoney } from '../../commands/workflows/transferMoney.js'
import { workflowCheckpointName } from '../../commands/workflows/workflowConsumer.js'
import { type FxTradeState, fxTradeDecider } from '../../domain/fx-trade/decider.js'
import type { FxTradeEvent } from '../../domain/fx-trade/events.js'
import { type TransferState, transferDecider } from '../../domain/transfer/decider.js'
import type { TransferEvent } from '../../domain/transfer/events.js'
import { heldFunds } from '../../domain/transfer/suspense.js'
import { parseEventData } from '../../events/catalog.js'
import { readCheckpoints } from '../../events/consumers/checkpoints.js'
import { type EventStore, type Position, START } from '../../events/store/port.js'
import { streams } from '../../events/streams.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { type LedgerFold, splitKey } from './ledgerFold.js'

export const TRANSIT_CHECK_LIMITS = {
  /** Transfers with money waiting whose stream is replayed; past it the check says so (never a silent pass). */
  maxTransfers: 100_000,
  /** Held transfers read from the read model per page. */
  heldPage: 1_000,
} as const

/** The workflows that move a transfer's money in and out of clearing and suspense. */
const MONEY_WORKFLOWS = [transferMoney, systemTransfers, reverseReclaimedTransfers]

export type TransitDiscrepancy =
  | { kind: 'clearing_not_in_flight'; transferId: string; status: string; currency: string; clearing: string }
  | { kind: 'fx_clearing_not_in_flight'; tradeId: string; status: string; currency: string; fxClearing: string }
  | { kind: 'suspense_not_held'; transferId: string; status: string; currency: string; suspense: string; held: string | null }
  | { kind: 'held_without_suspense'; transferId: string; currency: string; held: string; suspense: string }
  | { kind: 'too_many_transfers_in_transit'; checked: number }

export type TransitReport = { inFlight: number; held: number; discrepancy: TransitDiscrepancy | undefined }

type EventAt = { position: Position; type: string }
type Replayed = { state: TransferState; events: EventAt[] }

async function replay(store: EventStore, transferId: string, through: Position): Promise<Replayed> {
  let state: TransferState = transferDecider.initialState()
  const events: EventAt[] = []
  for (const e of await store.readStream(streams.transfer(transferId))) {
    if (store.comparePositions(e.position, through) > 0) break
    state = transferDecider.evolve(state, { type: e.type, data: parseEventData(e) } as TransferEvent)
    events.push({ position: e.position, type: e.type })
  }
  return { state, events }
}

/** Some money workflow handles one of `events` and has not reached it yet: a step about the transfer is to run. */
function stepPending(store: EventStore, checkpoints: ReadonlyMap<string, Position>, events: readonly EventAt[]): boolean {
  return MONEY_WORKFLOWS.some((workflow) => {
    const at = checkpoints.get(workflowCheckpointName(workflow)) ?? START
    return events.some((e) => workflow.handles.has(e.type) && store.comparePositions(at, e.position) < 0)
  })
}

/** Each transfer with money waiting against its state, inside the caller's snapshot (`trx`). */
export async function checkTransit(
  store: EventStore,
  trx: Kysely<ReadDatabase>,
  fold: LedgerFold,
  through: Position,
): Promise<TransitReport> {
  const checkpoints = await readCheckpoints(trx)
  let inFlight = 0
  let held = 0
  let checked = 0
  let discrepancy: TransitDiscrepancy | undefined
  for (const [transferId, transit] of fold.waiting()) {
    if (++checked > TRANSIT_CHECK_LIMITS.maxTransfers)
      return { inFlight, held, discrepancy: { kind: 'too_many_transfers_in_transit', checked } }
    if ([...transit.sums.keys()].every((key) => splitKey(key).ledgerAccount === 'fx_clearing')) {
      const found = await tradeClearing(store, transferId, transit.sums, through)
      if (found) discrepancy ??= found
      else inFlight++
      continue
    }
    const { state, events } = await replay(store, transferId, through)
    // A step about it is still to run: whatever it has in transit is on its way.
    if (stepPending(store, checkpoints, transit.last ? [...events, transit.last] : events)) {
      inFlight++
      continue
    }
    const status = state.status === 'none' ? 'none' : state.status
    const holding = state.status === 'none' ? undefined : heldFunds(state)
    if (holding) held++
    for (const [key, amount] of transit.sums) {
      if (amount === 0n || discrepancy) continue
      const { ledgerAccount, currency } = splitKey(key)
      if (ledgerAccount === 'clearing')
        discrepancy = { kind: 'clearing_not_in_flight', transferId, status, currency, clearing: amount.toString() }
      else if (!holding || holding.amount.currency !== currency || BigInt(holding.amount.amountMinor) !== amount)
        discrepancy = {
          kind: 'suspense_not_held',
          transferId,
          status,
          currency,
          suspense: amount.toString(),
          held: holding ? `${holding.amount.amountMinor} ${holding.amount.currency}` : null,
        }
    }
  }
  return { inFlight, held, discrepancy: discrepancy ?? (await heldWithoutSuspense(trx, fold)) }
}

/**
 * An FX trade's money in FX clearing: only while it is PROCESSING (converted, its payout not sent).
 * The trade's events move its money and its status in one append, so there is no step in between.
 */
async function tradeClearing(
  store: EventStore,
  tradeId: string,
  sums: ReadonlyMap<string, bigint>,
  through: Position,
): Promise<TransitDiscrepancy | undefined> {
  let state: FxTradeState = fxTradeDecider.initialState()
  for (const e of await store.readStream(streams.fxTrade(tradeId))) {
    if (store.comparePositions(e.position, through) > 0) break
    state = fxTradeDecider.evolve(state, { type: e.type, data: parseEventData(e) } as FxTradeEvent)
  }
  if (state.status === 'PROCESSING') return undefined
  for (const [key, amount] of sums) {
    if (amount === 0n) continue
    return {
      kind: 'fx_clearing_not_in_flight',
      tradeId,
      status: state.status,
      currency: splitKey(key).currency,
      fxClearing: amount.toString(),
    }
  }
  return undefined
}

/** A transfer the read model shows holding money whose suspense, folded, is not that money. */
async function heldWithoutSuspense(trx: Kysely<ReadDatabase>, fold: LedgerFold): Promise<TransitDiscrepancy | undefined> {
  let after = ''
  for (;;) {
    const { rows } = await sql<{ id: string; currency: string; amount: string }>`
      SELECT id, state->'suspended'->'amount'->>'currency' AS currency, state->'suspended'->'amount'->>'amountMinor' AS amount
      FROM transfers
      WHERE status = 'IN_REVIEW' AND id > ${after} AND jsonb_typeof(state->'suspended') = 'object'
        AND jsonb_typeof(state->'suspended'->'resolution') IS DISTINCT FROM 'object'
      ORDER BY id LIMIT ${TRANSIT_CHECK_LIMITS.heldPage}`.execute(trx)
    for (const row of rows) {
      const suspense = fold.transit.get(row.id)?.sums.get(`suspense|${row.currency}`) ?? 0n
      if (suspense !== BigInt(row.amount))
        return {
          kind: 'held_without_suspense',
          transferId: row.id,
          currency: row.currency,
          held: row.amount,
          suspense: suspense.toString(),
        }
    }
    if (rows.length < TRANSIT_CHECK_LIMITS.heldPage) return undefined
    after = rows[rows.length - 1]!.id
  }
}
