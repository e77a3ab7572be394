// A long, realistic history of one balance account's funds, decided by the funds decider and
// appended straight to the event store in big batches (validated by the catalog as a command's
// events are): credits, holds, and their settles and releases a few dozen holds later. For the
// snapshot tests and the bench ("a hold on an account with 1 000 000 prior postings").
import { randomUUID } from 'node:crypto'
import type { Funds } from '../../domain/balance-account/funds.js'
import type { FundsEvent } from '../../domain/balance-account/fundsEvents.js'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { validateNewEventData } from '../../events/catalog.js'
import { type EventStore, STORE_LIMITS } from '../../events/store/port.js'
import { type AccountFundsCommand, snapshotFundsDecider, snapshotFundsStream } from './snapshotFunds.js'

/** Holds left open at once before the oldest is settled or released (payouts in flight). */
const OPEN_HOLDS = 40
const NOW = '2026-11-24T08:00:00.000Z'

/** A hold id as long as a real transfer id (`tfr_` and 26 characters). */
export const holdIdOf = (i: number) => `tfr_${String(i).padStart(26, '0')}`

/** Where a history goes: a decider of funds commands (the test aggregate's, or an account's) and its stream. */
export type FundsHistoryTarget<State, Event extends DomainEvent = FundsEvent> = {
  decider: Decider<State, AccountFundsCommand, Event>
  stream: string
  /** The stream's state and revision before the history (an account's opening); omitted: an empty stream. */
  from?: { state: State; revision: bigint }
}

/** appendFundsHistoryTo the test aggregate's stream of the account. */
export const appendFundsHistory = (store: EventStore, accountId: string, events: number): Promise<{ state: Funds; revision: bigint }> =>
  appendFundsHistoryTo(store, accountId, events, { decider: snapshotFundsDecider, stream: snapshotFundsStream(accountId) })

/**
 * Appends `events` events decided for the account to `target`'s stream (empty, or at `target.from`), in
 * batches of STORE_LIMITS.maxEventsPerAppend. Answers the state they fold to and the stream's revision.
 */
export async function appendFundsHistoryTo<State, Event extends DomainEvent>(
  store: EventStore,
  accountId: string,
  events: number,
  target: FundsHistoryTarget<State, Event>,
): Promise<{ state: State; revision: bigint }> {
  const { decider, stream } = target
  let state = target.from?.state ?? decider.initialState()
  let revision: bigint | undefined = target.from?.revision
  let batch: Event[] = []
  const open: string[] = []
  let holds = 0
  const flush = async () => {
    const result = await store.appendToStream(
      stream,
      batch.map((e) => ({ id: randomUUID(), type: e.type, data: validateNewEventData(e.type, e.data), metadata: {} })),
      { expectedRevision: revision ?? 'no_stream' },
    )
    revision = result.nextExpectedRevision
    batch = []
  }
  for (let i = 0; i < events; i++) {
    // Of every ten: two credits, four holds, four settles or releases (one in four released).
    const slot = i % 10
    let command: AccountFundsCommand
    if (slot < 2 || (slot >= 6 && open.length === 0)) {
      command = { type: 'CreditFunds', accountId, cause: `dep_${i}`, currency: 'USD', amountMinor: 100_000n, now: NOW }
    } else if (slot < 6 || open.length < OPEN_HOLDS) {
      const holdId = holdIdOf(holds++)
      open.push(holdId)
      command = { type: 'PlaceHold', accountId, holdId, currency: 'USD', amountMinor: BigInt(1_000 + (i % 997)), now: NOW }
    } else {
      command = { type: i % 4 === 0 ? 'ReleaseHold' : 'SettleHold', accountId, holdId: open.shift()!, now: NOW }
    }
    for (const event of decider.decide(command, state)) {
      state = decider.evolve(state, event)
      batch.push(event)
    }
    if (batch.length >= STORE_LIMITS.maxEventsPerAppend) await flush()
  }
  if (batch.length > 0) await flush()
  if (revision === undefined) throw new Error('no events appended')
  return { state, revision }
}
