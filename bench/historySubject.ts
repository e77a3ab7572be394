// What the history bench (historyBench.ts) measures on: an aggregate that takes snapshots, how a
// long history of it is appended, and the command it times. Today a balance account's funds as a
// test aggregate (test/harness/snapshotFunds.ts). For the account aggregate that wraps the funds: a
// subject beside this one (its decider with its snapshot codec, its stream and id, its open and
// fund-in commands, and appendFundsHistoryTo(store, id, n, { decider, stream }) after its opening
// event), and HISTORY_SUBJECT names it.
import type { Funds } from '../domain/balance-account/funds.js'
import type { FundsEvent } from '../domain/balance-account/fundsEvents.js'
import type { Decider, DomainEvent } from '../domain/decider.js'
import type { EventStore } from '../events/store/port.js'
import { appendFundsHistory } from '../test/harness/fundsHistory.js'
import {
  type AccountFundsCommand,
  registerSnapshotFunds,
  snapshotFundsDecider,
  snapshotFundsStream,
  testAccountId,
} from '../test/harness/snapshotFunds.js'

export type HistoryBenchSubject<State, Command, Event extends DomainEvent> = {
  name: string
  /** Puts the aggregate in this process's catalog when it is not there already. */
  register(): void
  /** Its decider, with the snapshot codec production uses. */
  decider: Decider<State, Command, Event>
  accountId(label: string): string
  stream(accountId: string): string
  /** Appends `events` prior postings to a new account's stream, in big batches (not through commands). */
  appendHistory(store: EventStore, accountId: string, events: number): Promise<unknown>
  /** Funds a new account (its first command), enough for every hold timed. */
  fund(accountId: string): Command
  /** The command timed: the i-th hold on the account. */
  hold(accountId: string, i: number): Command
}

const NOW = '2026-11-24T08:00:00.000Z'

export const fundsHistorySubject: HistoryBenchSubject<Funds, AccountFundsCommand, FundsEvent> = {
  name: 'balance account funds',
  register: registerSnapshotFunds,
  decider: snapshotFundsDecider,
  accountId: testAccountId,
  stream: snapshotFundsStream,
  appendHistory: appendFundsHistory,
  fund: (accountId) => ({ type: 'CreditFunds', accountId, cause: 'bench_fund_in', currency: 'USD', amountMinor: 10n ** 12n, now: NOW }),
  hold: (accountId, i) => ({
    type: 'PlaceHold',
    accountId,
    holdId: `tfr_bench${String(i).padStart(21, '0')}`,
    currency: 'USD',
    amountMinor: 100n,
    now: NOW,
  }),
}

/** The subject `npm run bench` measures. */
export const HISTORY_SUBJECT = fundsHistorySubject
