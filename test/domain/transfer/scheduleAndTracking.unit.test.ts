// Two small pieces the decider and the create command lean on: a transfer's schedule from its
// payout side (domain/transfer/schedule.ts: a fiat rail's calendar and cut-off in its zone; a chain
// or a balance, two sandbox steps and no cut-off) and the tracking ids a leg carries
// (legTracking.ts: its rail's ids from the pool, a chain's hash, the fee's hash on a crypto payout).
import t from 'tap'
import { railSchedule, sandboxStepDelayMs } from '../../../domain/rails/index.js'
import { chainOfLeg, legTracking } from '../../../domain/transfer/legTracking.js'
import { planLegs } from '../../../domain/transfer/route.js'
import { scheduleOf } from '../../../domain/transfer/schedule.js'
import type { LegState } from '../../../domain/transfer/state.js'
import { POOL, SIDES, T0 } from './transferFixtures.js'

const now = new Date(T0) // a Tuesday, 03:00 in New York

t.test('scheduleOf: a fiat payout is scheduled on its rail’s calendar, in its zone', async (t) => {
  t.same(scheduleOf(SIDES.ach, now), railSchedule('ACH', now, { currency: 'USD' }))
  t.equal(scheduleOf(SIDES.ach, now).cutoffTimezone, 'America/New_York')
  t.equal(scheduleOf(SIDES.sepa, now).cutoffTimezone, 'Europe/Berlin')
  t.same(
    scheduleOf({ kind: 'FIAT_RAIL', rail: 'SWIFT', currency: 'EUR' }, now),
    railSchedule('SWIFT', now, { currency: 'EUR' }),
    'SWIFT by currency',
  )
  for (const side of [SIDES.ach, SIDES.wire, SIDES.sepa, SIDES.swiftUsd]) {
    const s = scheduleOf(side, now)
    t.ok(s.nextCutoffAt && Date.parse(s.nextCutoffAt) > now.getTime(), `${side.rail}: the next cut-off is ahead`)
    t.ok(Date.parse(s.estimatedSettlementAt) >= now.getTime(), `${side.rail}: settles no earlier than now`)
  }
})

t.test('scheduleOf: a chain or a balance has no cut-off and settles in two sandbox steps', async (t) => {
  t.same(scheduleOf(SIDES.solUsdc, now), {
    cutoffTimezone: null,
    nextCutoffAt: null,
    estimatedSettlementAt: new Date(now.getTime() + 2 * sandboxStepDelayMs('SOLANA')).toISOString(),
  })
  t.same(scheduleOf(SIDES.otherUsdBalance, now), {
    cutoffTimezone: null,
    nextCutoffAt: null,
    estimatedSettlementAt: new Date(now.getTime() + 2 * sandboxStepDelayMs('BALANCE')).toISOString(),
  })
})

const leg = (planned: ReturnType<typeof planLegs>[number]): LegState => ({
  ...planned,
  id: 'tleg_01jdtfr00000000000000000000',
  status: 'PENDING',
  startedAt: null,
  completedAt: null,
  tracking: {},
})
const plain = { untrackedSwift: false, chargesFee: false }

t.test('legTracking: each rail its own ids, a conversion none', async (t) => {
  const [, achPayout] = planLegs(SIDES.usdBalance, SIDES.ach).map(leg)
  t.same(legTracking(achPayout!, POOL, plain), { achTraceNumber: POOL.achTraceNumber })
  const [, wirePayout] = planLegs(SIDES.usdBalance, SIDES.wire).map(leg)
  t.same(legTracking(wirePayout!, POOL, plain), { imad: POOL.imad, omad: POOL.omad })
  const [, swiftPayout] = planLegs(SIDES.usdBalance, SIDES.swiftUsd).map(leg)
  t.same(legTracking(swiftPayout!, POOL, plain), { uetr: POOL.uetr })
  t.same(legTracking(swiftPayout!, POOL, { ...plain, untrackedSwift: true }), {}, 'untracked SWIFT: nothing')
  const [, convert, secondConvert, sepaPayout] = planLegs(SIDES.ach, SIDES.sepa).map(leg)
  t.same(legTracking(convert!, POOL, plain), {})
  t.same(legTracking(secondConvert!, POOL, plain), {}, 'even when its output rail is SEPA')
  t.same(legTracking(sepaPayout!, POOL, plain), { uetr: POOL.uetr })
  const [, credit] = planLegs(SIDES.usdBalance, SIDES.otherUsdBalance).map(leg)
  t.same(legTracking(credit!, POOL, plain), {}, 'a balance credit: none')
})

t.test('legTracking: a chain leg its hash; the fee’s hash on a crypto payout that charges a fee', async (t) => {
  const [deposit, payout] = planLegs(SIDES.ethUsdc, SIDES.solUsdc).map(leg)
  t.equal(chainOfLeg(deposit!), 'ETHEREUM')
  t.equal(chainOfLeg(payout!), 'SOLANA')
  t.same(legTracking(deposit!, POOL, { ...plain, chargesFee: true }), { txHash: POOL.txHash.ETHEREUM }, 'no fee hash on a deposit')
  t.same(legTracking(payout!, POOL, plain), { txHash: POOL.txHash.SOLANA })
  t.same(legTracking(payout!, POOL, { ...plain, chargesFee: true }), { txHash: POOL.txHash.SOLANA, feeTxHash: POOL.feeTxHash.SOLANA })
  const [, , tron] = planLegs(SIDES.ach, SIDES.tronUsdt).map(leg)
  t.same(legTracking(tron!, POOL, plain), { txHash: POOL.txHash.TRON }, 'each chain its own hash')
  const [, achConvert] = planLegs(SIDES.ach, SIDES.ethUsdc).map(leg)
  t.equal(chainOfLeg(achConvert!), null, 'a conversion is on no chain')
})
