// A balance account's funds, given/when/then: credits, holds against available funds (refused past
// it with insufficient_funds), settles and releases of open holds only, reversals; and a seeded
// random sequence against an independent model (available never negative, committed = open holds,
// every transaction balanced, money conserved with the world and clearing).
import t from 'tap'
import fc from 'fast-check'
import {
  type Funds,
  type FundsCommand,
  FUNDS_LIMITS,
  availableIn,
  committedIn,
  decideFunds,
  emptyFunds,
  evolveFunds,
} from '../../domain/balance-account/funds.js'
import type { FundsEvent } from '../../domain/balance-account/fundsEvents.js'
import { fundsEventSchemas } from '../../domain/balance-account/fundsEvents.js'
import { DomainError } from '../../domain/errors.js'
import { totalsByCurrency } from '../../domain/ledger/index.js'
import { spec } from './deciderSpec.js'

const ACC = 'acc_01h00000000000000000000000'
const NOW = '2026-11-24T08:00:00.000Z'
const decider = { initialState: () => emptyFunds(ACC, ['USD', 'USDC']), evolve: evolveFunds, decide: decideFunds }
const funds = spec(decider)
const run = (commands: FundsCommand[]): FundsEvent[] => {
  let state = decider.initialState()
  const events: FundsEvent[] = []
  for (const c of commands)
    for (const e of decideFunds(c, state)) {
      events.push(e)
      state = evolveFunds(state, e)
    }
  return events
}
const credit = (amountMinor: bigint, cause = 'dep_1'): FundsCommand => ({
  type: 'CreditFunds',
  cause,
  currency: 'USD',
  amountMinor,
  now: NOW,
})
const hold = (holdId: string, amountMinor: bigint): FundsCommand => ({ type: 'PlaceHold', holdId, currency: 'USD', amountMinor, now: NOW })

t.test('a credit moves money from the world to available', async (t) => {
  funds
    .given([])
    .when(credit(5_000n))
    .thenMatches(t, [
      {
        type: 'FundsCredited',
        data: {
          accountId: ACC,
          cause: 'dep_1',
          transaction: {
            kind: 'CREDIT',
            postings: [
              { ledgerAccount: 'world', currency: 'USD', amountMinor: '-5000' },
              { ledgerAccount: `available:${ACC}`, currency: 'USD', amountMinor: '5000' },
            ],
          },
        },
      },
    ])
  for (const e of run([credit(5_000n)])) t.ok(fundsEventSchemas[e.type].safeParse(e.data).success, 'the event fits its schema')
  funds
    .given([])
    .when({ ...credit(5n), currency: 'EUR' } as FundsCommand)
    .thenThrows(t, 'currency_not_supported')
  funds.given([]).when(credit(0n)).thenThrows(t, 'invalid_amount')
})

t.test('a hold needs available funds, and commits them', async (t) => {
  funds
    .given(run([credit(1_000n)]))
    .when(hold('tfr_1', 1_001n))
    .thenThrows(t, 'insufficient_funds')
  const held = run([credit(1_000n), hold('tfr_1', 600n)])
  const { state } = funds.given(held)
  t.equal(availableIn(state, 'USD'), 400n)
  t.equal(committedIn(state, 'USD'), 600n)
  funds.given(held).when(hold('tfr_1', 1n)).thenThrows(t, 'hold_exists')
})

t.test('settle and release close an open hold once', async (t) => {
  const events = run([credit(1_000n), hold('tfr_1', 600n), hold('tfr_2', 300n)])
  const settled = run([
    credit(1_000n),
    hold('tfr_1', 600n),
    hold('tfr_2', 300n),
    { type: 'SettleHold', holdId: 'tfr_1', now: NOW },
    { type: 'ReleaseHold', holdId: 'tfr_2', now: NOW },
  ])
  const { state } = funds.given(settled)
  t.equal(availableIn(state, 'USD'), 400n, '1000 - 600 paid out; the 300 released came back')
  t.equal(committedIn(state, 'USD'), 0n)
  t.equal(state.openHolds.size, 0)
  funds.given(settled).when({ type: 'SettleHold', holdId: 'tfr_1', now: NOW }).thenThrows(t, 'hold_closed')
  funds.given(settled).when({ type: 'ReleaseHold', holdId: 'tfr_2', now: NOW }).thenThrows(t, 'hold_closed')
  funds.given(events).when({ type: 'SettleHold', holdId: 'tfr_9', now: NOW }).thenThrows(t, 'resource_not_found')
  funds
    .given(events)
    .when({ type: 'ReleaseHold', holdId: 'tfr_2', now: NOW })
    .thenMatches(t, [
      {
        type: 'HoldReleased',
        data: {
          holdId: 'tfr_2',
          transaction: {
            kind: 'RELEASE',
            postings: [
              { ledgerAccount: `committed:${ACC}`, amountMinor: '-300' },
              { ledgerAccount: `available:${ACC}`, amountMinor: '300' },
            ],
          },
        },
      },
    ])
})

t.test('a reversal takes back available funds only', async (t) => {
  const given = run([credit(1_000n), hold('tfr_1', 800n)])
  funds
    .given(given)
    .when({ type: 'ReverseCredit', cause: 'dep_1', currency: 'USD', amountMinor: 300n, now: NOW })
    .thenThrows(t, 'insufficient_funds')
  funds
    .given(given)
    .when({ type: 'ReverseCredit', cause: 'dep_1', currency: 'USD', amountMinor: 200n, now: NOW })
    .thenMatches(t, [{ type: 'CreditReversed' }])
})

t.test('property: random commands against an independent model', async (t) => {
  const command = fc.oneof(
    fc.record({ type: fc.constant('CreditFunds' as const), amount: fc.bigInt({ min: 1n, max: 10_000n }) }),
    fc.record({ type: fc.constant('PlaceHold' as const), amount: fc.bigInt({ min: 1n, max: 10_000n }) }),
    fc.record({ type: fc.constant('SettleHold' as const), pick: fc.nat() }),
    fc.record({ type: fc.constant('ReleaseHold' as const), pick: fc.nat() }),
    fc.record({ type: fc.constant('ReverseCredit' as const), amount: fc.bigInt({ min: 1n, max: 10_000n }) }),
  )
  fc.assert(
    fc.property(fc.array(command, { maxLength: 300 }), (commands) => {
      let state: Funds = decider.initialState()
      const model = { available: 0n, open: new Map<string, bigint>(), paidOut: 0n, world: 0n }
      commands.forEach((c, i) => {
        let cmd: FundsCommand
        const openIds = [...model.open.keys()]
        if (c.type === 'CreditFunds' || c.type === 'ReverseCredit')
          cmd = { type: c.type, cause: `c${i}`, currency: 'USD', amountMinor: c.amount, now: NOW }
        else if (c.type === 'PlaceHold') cmd = hold(`h${i}`, c.amount)
        else cmd = { type: c.type, holdId: openIds.length ? openIds[c.pick % openIds.length]! : 'none', now: NOW }
        let events: FundsEvent[]
        try {
          events = decideFunds(cmd, state)
        } catch (error) {
          if (!(error instanceof DomainError)) throw error
          // Refusals the model predicts: nothing else may be refused.
          const amount = 'amountMinor' in cmd ? cmd.amountMinor : 0n
          const expected = (cmd.type === 'PlaceHold' || cmd.type === 'ReverseCredit') && amount > model.available
          if (!expected && !(cmd.type === 'SettleHold' || cmd.type === 'ReleaseHold')) throw error
          return
        }
        for (const e of events) state = evolveFunds(state, e)
        if (cmd.type === 'CreditFunds') {
          model.available += cmd.amountMinor
          model.world -= cmd.amountMinor
        } else if (cmd.type === 'ReverseCredit') {
          model.available -= cmd.amountMinor
          model.world += cmd.amountMinor
        } else if (cmd.type === 'PlaceHold') {
          model.available -= cmd.amountMinor
          model.open.set(cmd.holdId, cmd.amountMinor)
        } else if (cmd.type === 'SettleHold') {
          model.paidOut += model.open.get(cmd.holdId)!
          model.open.delete(cmd.holdId)
        } else {
          model.available += model.open.get(cmd.holdId)!
          model.open.delete(cmd.holdId)
        }
      })
      const committed = [...model.open.values()].reduce((a, b) => a + b, 0n)
      return (
        availableIn(state, 'USD') === model.available &&
        model.available >= 0n &&
        committedIn(state, 'USD') === committed &&
        state.openHolds.size === model.open.size &&
        [...totalsByCurrency(state.balances).values()].every((v) => v === 0n) &&
        model.world + model.available + committed + model.paidOut === 0n
      )
    }),
    { seed: 20261124, numRuns: 200 },
  )
  t.pass('200 random sequences matched the model')
})

t.test('closed hold ids are remembered up to FUNDS_LIMITS.maxClosedHolds, the oldest forgotten first', async (t) => {
  const commands: FundsCommand[] = [credit(10n ** 9n)]
  const closed = FUNDS_LIMITS.maxClosedHolds + 1
  for (let i = 0; i < closed; i++) commands.push(hold(`tfr_${i}`, 1n), { type: 'SettleHold', holdId: `tfr_${i}`, now: NOW })
  const { state } = funds.given(run(commands))
  t.ok(state.closedHolds.size <= FUNDS_LIMITS.maxClosedHolds, 'bounded')
  t.ok(state.closedHolds.size > FUNDS_LIMITS.maxClosedHolds - 256, 'by at most one chunk under the limit')
  funds.given(run(commands)).when({ type: 'SettleHold', holdId: 'tfr_0', now: NOW }).thenThrows(t, 'resource_not_found')
  funds
    .given(run(commands))
    .when({ type: 'SettleHold', holdId: `tfr_${closed - 1}`, now: NOW })
    .thenThrows(t, 'hold_closed')
  funds
    .given(run(commands))
    .when(hold(`tfr_${closed - 1}`, 1n))
    .thenThrows(t, 'hold_exists')
})
