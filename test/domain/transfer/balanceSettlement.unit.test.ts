// The ledger side of a balance-funded transfer (domain/balance-account/funds.ts): the hold settles
// with the developer fee split to the fees account and the rest to clearing (one balanced
// transaction); a fee that is not below the hold is refused; and a transfer delivered into (or paid
// back to) a balance account is credited from clearing, not from the world.
import t from 'tap'
import { type FundsCommand, availableIn, committedIn, decideFunds, emptyFunds, evolveFunds } from '../../../domain/balance-account/funds.js'
import type { FundsEvent } from '../../../domain/balance-account/fundsEvents.js'
import { fundsEventSchemas } from '../../../domain/balance-account/fundsEvents.js'
import { type LedgerBalances, applyTransaction, assertBalanced, balanceOf, totalsByCurrency } from '../../../domain/ledger/index.js'
import { spec } from '../deciderSpec.js'
import { T0 } from './transferFixtures.js'

const ACC = 'acc_01jdtfr0000000000000000001'
const decider = { initialState: () => emptyFunds(ACC, ['USD']), evolve: evolveFunds, decide: decideFunds }
const funds = spec(decider)
const credit = (amountMinor: bigint, source?: 'world' | 'clearing'): FundsCommand => ({
  type: 'CreditFunds',
  cause: 'tfr_01jdtfr0000000000000000001',
  currency: 'USD',
  amountMinor,
  now: T0,
  ...(source ? { source } : {}),
})
const hold = (amountMinor: bigint): FundsCommand => ({ type: 'PlaceHold', holdId: 'hld_1', currency: 'USD', amountMinor, now: T0 })
const settle = (feeMinor?: bigint): FundsCommand => ({
  type: 'SettleHold',
  holdId: 'hld_1',
  now: T0,
  ...(feeMinor === undefined ? {} : { feeMinor }),
})

function run(commands: FundsCommand[]): FundsEvent[] {
  let state = decider.initialState()
  const events: FundsEvent[] = []
  for (const c of commands)
    for (const e of decideFunds(c, state)) {
      fundsEventSchemas[e.type].parse(e.data)
      events.push(e)
      state = evolveFunds(state, e)
    }
  return events
}

const postings = (e: FundsEvent | undefined) =>
  Object.fromEntries((e?.data.transaction.postings ?? []).map((p) => [`${p.ledgerAccount}|${p.currency}`, p.amountMinor]))

t.test('a hold settles with the fee to fees and the rest to clearing, in one balanced transaction', async (t) => {
  const held = run([credit(10_000n), hold(10_000n)])
  const [settled] = decideFunds(settle(150n), held.reduce(evolveFunds, decider.initialState()))
  t.equal(settled?.type, 'HoldSettled')
  t.equal(settled?.data.transaction.id, 'settle:hld_1')
  t.equal(settled?.data.transaction.kind, 'SETTLE')
  t.same(postings(settled), {
    [`committed:${ACC}|USD`]: '-10000',
    'clearing|USD': '9850',
    'fees|USD': '150',
  })
  t.doesNotThrow(() => assertBalanced(settled!.data.transaction))
  const after = run([credit(10_000n), hold(10_000n), settle(150n)]).reduce(evolveFunds, decider.initialState())
  t.equal(availableIn(after, 'USD'), 0n)
  t.equal(committedIn(after, 'USD'), 0n, 'the hold is closed')
  t.equal(after.openHolds.size, 0)
})

t.test('no fee (or 0): all of the hold to clearing, as before', async (t) => {
  for (const fee of [undefined, 0n]) {
    const events = run([credit(10_000n), hold(4_000n), settle(fee)])
    t.same(postings(events.at(-1)), { [`committed:${ACC}|USD`]: '-4000', 'clearing|USD': '4000' }, `fee ${String(fee)}`)
  }
})

t.test('a fee not below the hold, or negative, is refused', async (t) => {
  const held = run([credit(10_000n), hold(4_000n)])
  funds.given(held).when(settle(4_000n)).thenThrows(t, 'invalid_fee', 'the whole hold')
  funds.given(held).when(settle(4_001n)).thenThrows(t, 'invalid_fee', 'more than the hold')
  funds.given(held).when(settle(-1n)).thenThrows(t, 'invalid_fee', 'negative')
  funds
    .given(held)
    .when(settle(3_999n))
    .thenMatches(t, [{ type: 'HoldSettled' }], 'one unit below: fine')
})

t.test('a release never keeps a fee', async (t) => {
  const events = run([credit(10_000n), hold(4_000n), { type: 'ReleaseHold', holdId: 'hld_1', now: T0 }])
  t.same(postings(events.at(-1)), { [`committed:${ACC}|USD`]: '-4000', [`available:${ACC}|USD`]: '4000' })
})

t.test('a transfer delivered into a balance is credited from clearing', async (t) => {
  const [credited] = run([credit(2_500n, 'clearing')])
  t.same(postings(credited), { 'clearing|USD': '-2500', [`available:${ACC}|USD`]: '2500' })
  t.match(credited?.data.transaction, { kind: 'CREDIT', description: 'Transfer tfr_01jdtfr0000000000000000001' })
  const [deposit] = run([credit(2_500n)])
  t.same(postings(deposit), { 'world|USD': '-2500', [`available:${ACC}|USD`]: '2500' }, 'a deposit still comes from the world')
})

t.test('money is conserved: pay out with a fee, then the payout delivered to another balance from clearing', async (t) => {
  const payer = run([credit(10_000n), hold(10_000n), settle(150n)])
  const payee = run([credit(9_850n, 'clearing')])
  const ledger = [...payer, ...payee].reduce<LedgerBalances>((b, e) => applyTransaction(b, e.data.transaction), new Map())
  const totals = totalsByCurrency(ledger)
  t.equal(balanceOf(ledger, 'fees', 'USD'), 150n, 'the fee on the fees account')
  t.equal(balanceOf(ledger, 'clearing', 'USD'), 0n, 'clearing nets out once the payout is delivered')
  t.equal(balanceOf(ledger, 'world', 'USD'), -10_000n, 'only the first deposit came from the world')
  t.equal(totals.get('USD'), 0n, 'every posting sums to zero')
})
