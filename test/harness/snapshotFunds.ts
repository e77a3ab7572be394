// A balance account's funds (domain/balance-account/funds.ts) as a small aggregate that opts in to
// snapshots, for the tests and the bench of the command runtime's snapshots until the account
// aggregate that wraps the funds is in the catalog. One decider for the whole category: a command
// names its account, and the first event fixes it in the state. Its events are the funds events,
// registered in the catalog under a test-only stream category.
import type { Decider } from '../../domain/decider.js'
import { type Funds, type FundsCommand, decideFunds, emptyFunds, evolveFunds } from '../../domain/balance-account/funds.js'
import { type FundsEvent, fundsEventSchemas } from '../../domain/balance-account/fundsEvents.js'
import { fundsSnapshot } from '../../domain/balance-account/fundsSnapshot.js'
import { aggregateOfCategory, registerAggregate } from '../../events/catalog.js'
import { streamName } from '../../events/streams.js'

export const SNAPSHOT_FUNDS_CATEGORY = 'test_funds'
export const SNAPSHOT_FUNDS_CURRENCIES = ['USD'] as const

export type AccountFundsCommand = FundsCommand & { accountId: string }

const withAccount = (f: Funds, accountId: string): Funds => (f.accountId === '' ? { ...f, accountId } : f)

export const snapshotFundsDecider: Decider<Funds, AccountFundsCommand, FundsEvent> = {
  initialState: () => emptyFunds('', SNAPSHOT_FUNDS_CURRENCIES),
  decide: (command, f) => decideFunds(command, withAccount(f, command.accountId)),
  evolve: (f, event) => evolveFunds(withAccount(f, event.data.accountId), event),
  snapshot: fundsSnapshot,
}

export const snapshotFundsAggregate = {
  name: 'testFunds',
  streamCategory: SNAPSHOT_FUNDS_CATEGORY,
  eventSchemas: fundsEventSchemas,
  decider: snapshotFundsDecider,
}

export const snapshotFundsStream = (accountId: string) => streamName(snapshotFundsAggregate, accountId)

/** An account id of the real shape (`acc_` and 26 of [0-9a-z]) named after `label`. */
export const testAccountId = (label: string) =>
  `acc_${label
    .toLowerCase()
    .replace(/[^0-9a-z]/g, '')
    .padEnd(26, '0')
    .slice(0, 26)}`

/** Adds the aggregate to this process's catalog (once). */
export function registerSnapshotFunds(): void {
  if (!aggregateOfCategory(SNAPSHOT_FUNDS_CATEGORY)) registerAggregate(snapshotFundsAggregate)
}
