// Stored account events as public webhook events: balance.credited for every credit (a deposit, a
// sandbox fund-in with its reference, a credit-line draw), balance.debited for a settled payout and
// a reversal, nothing for holds, releases or the account's own lifecycle; exact payloads and tags.
import t from 'tap'
import { type AccountCommand, type AccountState, accountDecider } from '../../domain/account/decider.js'
import type { AccountEvent } from '../../domain/account/events.js'
import { accountPublicEvents } from '../../domain/account/publicEvents.js'
import { publicEventOf } from '../../domain/publicEvents.js'

const ORG = 'org_01h00000000000000000000000'
const ACC = 'acc_01h00000000000000000000000'
const NOW = '2026-11-24T08:00:00.000Z'
const usd = (value: string, displayValue: string) => ({ currency: 'USD', exponent: 2, value, displayValue })

const opened: AccountEvent = {
  type: 'AccountOpened',
  data: {
    accountId: ACC,
    organizationId: ORG,
    customerId: null,
    kind: 'USD_BALANCE',
    type: 'INFINITE_BANK',
    status: 'ACTIVE',
    currencyCodes: ['USD'],
    paymentRails: [],
    holdsBalance: true,
    balanceSourceEligible: true,
    provider: 'SANDBOX',
    counterpartyId: null,
    metadata: {},
    details: { kind: 'USD_BALANCE' },
    at: NOW,
  },
}
type Unscoped<T> = T extends unknown ? Omit<T, 'organizationId' | 'accountId' | 'now'> : never
type Step = Unscoped<AccountCommand>
let state: AccountState = accountDecider.evolve(accountDecider.initialState(), opened)
const step = (command: Step): AccountEvent[] => {
  const events = accountDecider.decide({ ...command, organizationId: ORG, accountId: ACC, now: NOW } as AccountCommand, state)
  for (const e of events) state = accountDecider.evolve(state, e)
  return events
}
const published = (events: AccountEvent[]) =>
  events.map((e) => publicEventOf(accountPublicEvents, { type: e.type, data: e.data, recordedAt: new Date(NOW) }))

t.test('credits: balance.credited with the signed amount, its kind and reference', async (t) => {
  t.same(published(step({ type: 'CreditFunds', cause: 'dep_1', currency: 'USD', amountMinor: 1234n })), [
    {
      type: 'balance.credited',
      data: {
        accountId: ACC,
        amount: usd('1234', '12.34'),
        transactionId: 'credit:dep_1',
        description: 'Deposit dep_1',
        createdAt: NOW,
        type: 'DEPOSIT',
        reference: 'dep_1',
      },
      tags: [ACC, 'dep_1'],
    },
  ])
  t.match(published(step({ type: 'CreditFunds', cause: 'fund-in:wire-7', currency: 'USD', amountMinor: 5n })), [
    { type: 'balance.credited', data: { type: 'FUND_IN', reference: 'wire-7', amount: usd('5', '0.05') } },
  ])
  t.match(published(step({ type: 'CreditFunds', cause: 'drw_1', currency: 'USD', amountMinor: 7n, source: 'credit_line' })), [
    { type: 'balance.credited', data: { type: 'DRAW', reference: 'drw_1', transactionId: 'credit:drw_1' } },
  ])
})

t.test('holds and releases publish nothing; a settle and a reversal publish balance.debited with a negative amount', async (t) => {
  t.same(published(step({ type: 'PlaceHold', holdId: 'hld_1', currency: 'USD', amountMinor: 100n })), [undefined])
  t.same(published(step({ type: 'PlaceHold', holdId: 'hld_2', currency: 'USD', amountMinor: 50n })), [undefined])
  t.same(published(step({ type: 'ReleaseHold', holdId: 'hld_2' })), [undefined])
  t.same(published(step({ type: 'SettleHold', holdId: 'hld_1' })), [
    {
      type: 'balance.debited',
      data: {
        accountId: ACC,
        amount: usd('-100', '-1.00'),
        transactionId: 'settle:hld_1',
        description: 'Payout hld_1 paid out',
        createdAt: NOW,
        type: 'PAYOUT',
        holdId: 'hld_1',
      },
      tags: [ACC, 'hld_1'],
    },
  ])
  t.match(published(step({ type: 'ReverseCredit', cause: 'fund-in:wire-7', currency: 'USD', amountMinor: 5n })), [
    { type: 'balance.debited', data: { type: 'REVERSAL', reference: 'wire-7', amount: usd('-5', '-0.05') }, tags: [ACC, 'wire-7'] },
  ])
  t.same(published([opened]), [undefined], 'the opening is no balance event')
})
