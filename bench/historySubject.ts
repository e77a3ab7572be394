// What the history bench (historyBench.ts) measures on: an aggregate that takes snapshots, how a
// long history of it is appended, and the command it times. Today a balance account's funds as a
// test aggregate (test/harness/snapshotFunds.ts). For the account aggregate that wraps the funds: a
// subject beside this one (its decider with its snapshot codec, its stream and id, its open and
// fund-in commands, and appendFundsHistoryTo(store, id, n, { decider, stream }) after its opening
// event), and HISTORY_SUBJECT names it.
import type { Funds } from '../domain/balance-account/funds.js'
import type { FundsEvent } from '../domain/balance-account/fundsEvents.js'
import type { Decider, DomainEvent } from '../domain/decider.js'
import { appendFundsHistory, appendFundsHistoryTo } from '../test/harness/fundsHistory.js'
import { type AccountCommand, type AccountState, accountDecider } from '../domain/account/decider.js'
import type { AccountEvent } from '../domain/account/events.js'
import type { Commands } from '../commands/runtime/commandRuntime.js'
import { streams } from '../events/streams.js'
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
  appendHistory(commands: Commands, accountId: string, events: number): Promise<unknown>
  /** Opens a new account when its aggregate needs that before funds move (the account aggregate does). */
  open?(commands: Commands, accountId: string): Promise<unknown>
  /** Funds a new account, enough for every hold timed. */
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
  appendHistory: (commands, accountId, events) => appendFundsHistory(commands.store, accountId, events),
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

// ---- The account aggregate: what production runs ---------------------------------------------
const ORG = 'org_01h0000000000000000000benc'
const origin = { organizationId: ORG, requestId: 'req_bench', actor: 'bench' }

/** The account decider taking the funds commands the history helper issues (the organization added). */
const accountFundsDecider: Decider<AccountState, AccountFundsCommand, AccountEvent> = {
  initialState: accountDecider.initialState,
  evolve: accountDecider.evolve,
  decide: (command, state) => accountDecider.decide({ ...command, organizationId: ORG }, state),
  ...(accountDecider.snapshot ? { snapshot: accountDecider.snapshot } : {}),
}

function openAccount(accountId: string): AccountCommand {
  return {
    type: 'OpenAccount',
    organizationId: ORG,
    accountId,
    now: NOW,
    status: 'ACTIVE',
    account: {
      customerId: null,
      kind: 'USD_BALANCE',
      type: 'INFINITE_BANK',
      currencyCodes: ['USD'],
      paymentRails: ['BALANCE'],
      holdsBalance: true,
      balanceSourceEligible: false,
      provider: 'SANDBOX_BANK',
      counterpartyId: null,
      metadata: {},
      details: { kind: 'USD_BALANCE' },
    },
  }
}

export const accountHistorySubject: HistoryBenchSubject<AccountState, AccountFundsCommand, AccountEvent> = {
  name: 'USD balance account (the account aggregate)',
  register: () => undefined,
  decider: accountFundsDecider,
  accountId: (label) =>
    `acc_${label
      .replace(/[^0-9a-z]/g, '')
      .padEnd(26, '0')
      .slice(0, 26)}`,
  stream: (accountId) => streams.account(accountId),
  open: (commands, accountId) => commands.handle(accountDecider, streams.account(accountId), openAccount(accountId), origin),
  async appendHistory(commands, accountId, events) {
    const opened = await commands.handle(accountDecider, streams.account(accountId), openAccount(accountId), origin)
    return appendFundsHistoryTo(commands.store, accountId, events, {
      decider: accountFundsDecider,
      stream: streams.account(accountId),
      from: { state: opened.state, revision: 0n },
    })
  },
  fund: (accountId) => fundsHistorySubject.fund(accountId),
  hold: (accountId, i) => fundsHistorySubject.hold(accountId, i),
}

/** The subject `npm run bench` measures. */
export const HISTORY_SUBJECT = accountHistorySubject
