// The liquidity facility, given/when/then: the operator's terms, the payout treasury (one of the
// eligible ones), draws within maximumDrawAmount and remainingCredit, repayments oldest draw first
// with each draw's fee before its principal, refused above what is owed; and a seeded random
// sequence against an independent model (borrowed never negative nor above the limit, every
// repayment's ledger transaction balanced, money conserved).
import t from 'tap'
import fc from 'fast-check'
import { type LiquidityFacilityCommand, liquidityFacilityDecider } from '../../domain/liquidity-facility/decider.js'
import type { LiquidityFacilityEvent } from '../../domain/liquidity-facility/events.js'
import { liquidityFacilityEventSchemas } from '../../domain/liquidity-facility/events.js'
import { accruedFee } from '../../domain/liquidity-facility/fee.js'
import { HOUR_MS } from '../../domain/liquidity-facility/limits.js'
import { remainingCredit } from '../../domain/liquidity-facility/state.js'
import { DomainError } from '../../domain/errors.js'
import { sumsByCurrency } from '../../domain/ledger/index.js'
import { spec } from './deciderSpec.js'

const ORG = 'org_01h00000000000000000000000'
const FACILITY = 'lqf_01h00000000000000000000000'
const TREASURY = 'inw_01h00000000000000000000000'
const T0 = '2026-11-24T08:00:00.000Z'
const at = (hours: number, ms = 0) => new Date(Date.parse(T0) + hours * HOUR_MS + ms).toISOString()
const facility = spec(liquidityFacilityDecider)

const configure = (over: Partial<Extract<LiquidityFacilityCommand, { type: 'ConfigureCreditLine' }>> = {}): LiquidityFacilityCommand => ({
  type: 'ConfigureCreditLine',
  organizationId: ORG,
  now: T0,
  currency: 'USDC',
  network: 'SOLANA',
  creditLimitMinor: 1_000_000n,
  maximumDrawMinor: 400_000n,
  fundingFeeBpsPerHour: '10',
  feeCapHours: 24,
  configuredBy: 'cli:ops',
  ...over,
})
const setTreasury = (payoutTreasuryId = TREASURY, eligible = [TREASURY]): LiquidityFacilityCommand => ({
  type: 'SetPayoutTreasury',
  organizationId: ORG,
  now: T0,
  payoutTreasuryId,
  eligibleTreasuryIds: eligible,
})
const takeDraw = (drawId: string, amountMinor: bigint, now = T0, eligible = [TREASURY]): LiquidityFacilityCommand => ({
  type: 'TakeDraw',
  organizationId: ORG,
  now,
  drawId,
  amountMinor,
  reference: null,
  eligibleTreasuryIds: eligible,
})
const repay = (repaymentId: string, amountMinor: bigint, now: string): LiquidityFacilityCommand => ({
  type: 'RepayDraws',
  organizationId: ORG,
  now,
  repaymentId,
  amountMinor,
})

/** The events of running `commands` in order from nothing. */
function run(commands: LiquidityFacilityCommand[]): LiquidityFacilityEvent[] {
  let state = liquidityFacilityDecider.initialState()
  const events: LiquidityFacilityEvent[] = []
  for (const c of commands)
    for (const e of liquidityFacilityDecider.decide(c, state)) {
      events.push(e)
      state = liquidityFacilityDecider.evolve(state, e)
    }
  return events
}
const ready = () => run([configure(), setTreasury()])

t.test('the operator configures the credit line; its terms are checked', async (t) => {
  facility
    .given([])
    .when(configure())
    .then(t, [
      {
        type: 'LiquidityFacilityConfigured',
        data: {
          facilityId: FACILITY,
          organizationId: ORG,
          currency: 'USDC',
          network: 'SOLANA',
          creditLimitMinor: '1000000',
          maximumDrawMinor: '400000',
          fundingFeeBpsPerHour: '10',
          feeCapHours: 24,
          configuredBy: 'cli:ops',
          configuredAt: T0,
        },
      },
    ])
  facility
    .given([])
    .when(configure({ maximumDrawMinor: 1_000_001n }))
    .thenThrows(t, 'invalid_credit_line', 'max draw above the limit')
  facility
    .given([])
    .when(configure({ fundingFeeBpsPerHour: '1.00001' }))
    .thenThrows(t, 'invalid_credit_line', 'five fee decimals')
  facility
    .given([])
    .when(configure({ feeCapHours: 0 }))
    .thenThrows(t, 'invalid_credit_line', 'a zero cap')
  facility
    .given([])
    .when(configure({ creditLimitMinor: -1n }))
    .thenThrows(t, 'invalid_credit_line', 'a negative limit')
})

t.test('a limit below what is borrowed, or another currency with open draws, is refused', async (t) => {
  const drawn = run([configure(), setTreasury(), takeDraw('drw_1', 300_000n)])
  facility
    .given(drawn)
    .when(configure({ creditLimitMinor: 299_999n, maximumDrawMinor: 1n }))
    .thenThrows(t, 'credit_limit_below_borrowed')
  facility
    .given(drawn)
    .when(configure({ currency: 'USDT' }))
    .thenThrows(t, 'facility_has_open_draws')
  facility
    .given(drawn)
    .when(configure({ creditLimitMinor: 300_000n, maximumDrawMinor: 1n }))
    .thenMatches(t, [{ type: 'LiquidityFacilityConfigured' }], 'a limit equal to borrowed is fine')
})

t.test('the payout treasury must be one of the eligible ones', async (t) => {
  facility
    .given([])
    .when(setTreasury())
    .thenMatches(t, [{ type: 'PayoutTreasurySet', data: { payoutTreasuryId: TREASURY } }])
  facility
    .given([])
    .when(setTreasury('inw_other', [TREASURY]))
    .thenThrows(t, 'payout_treasury_not_eligible')
  facility.given(ready()).when(setTreasury()).then(t, [], 'the same treasury again changes nothing')
})

t.test('draws: within maximumDrawAmount and remainingCredit, to a set and eligible treasury', async (t) => {
  facility
    .given(ready())
    .when(takeDraw('drw_1', 400_000n))
    .thenMatches(t, [
      {
        type: 'DrawTaken',
        data: { drawId: 'drw_1', amountMinor: '400000', payoutTreasuryId: TREASURY, fundingFeeBpsPerHour: '10', feeCapHours: 24 },
      },
    ])
  facility.given([]).when(takeDraw('drw_1', 1n)).thenThrows(t, 'credit_line_not_configured', 'never configured')
  facility
    .given(run([configure()]))
    .when(takeDraw('drw_1', 1n))
    .thenThrows(t, 'payout_treasury_not_set')
  facility
    .given(ready())
    .when(takeDraw('drw_1', 1n, T0, []))
    .thenThrows(t, 'payout_treasury_not_eligible', 'treasury closed since')
  facility.given(ready()).when(takeDraw('drw_1', 0n)).thenThrows(t, 'invalid_amount')
  facility.given(ready()).when(takeDraw('drw_1', 400_001n)).thenThrows(t, 'draw_amount_too_large')
  const twice = run([configure(), setTreasury(), takeDraw('a', 400_000n), takeDraw('b', 400_000n)])
  facility.given(twice).when(takeDraw('drw_3', 200_001n)).thenThrows(t, 'credit_limit_exceeded')
  facility
    .given(twice)
    .when(takeDraw('drw_3', 200_000n))
    .thenMatches(t, [{ type: 'DrawTaken' }], 'exactly the remaining credit')
  const closed = run([configure({ creditLimitMinor: 0n, maximumDrawMinor: 0n }), setTreasury()])
  facility.given(closed).when(takeDraw('drw_1', 1n)).thenThrows(t, 'credit_line_not_configured', 'a zero limit')
  try {
    liquidityFacilityDecider.decide(takeDraw('drw_3', 200_001n), facility.given(twice).state)
  } catch (error) {
    t.match((error as DomainError).details, [{ field: 'amount', value: '200000' }], 'the refusal names the remaining credit')
  }
})

t.test('a draw keeps the fee terms in force when it was taken', async (t) => {
  const events = run([configure(), setTreasury(), takeDraw('drw_1', 100_000n), configure({ fundingFeeBpsPerHour: '99' })])
  const state = facility.given(events).state
  t.same(state.openDraws[0]?.terms, { fundingFeeBpsPerHour: '10', feeCapHours: 24 })
})

t.test('repayments: oldest draw first, its fee before its principal; a draw closes when its principal is paid', async (t) => {
  // 10 bps an hour: 100 000 accrues 100 an hour; 200 000, 200.
  const given = run([configure(), setTreasury(), takeDraw('drw_a', 100_000n, at(0)), takeDraw('drw_b', 200_000n, at(1))])
  // At 2h + 1ms: drw_a has 3 started hours (300), drw_b 2 (400). 100 300 pays drw_a whole; 50 more
  // pays part of drw_b's fee.
  const [event] = liquidityFacilityDecider.decide(repay('rpy_1', 100_350n, at(2, 1)), facility.given(given).state)
  t.match(event, {
    type: 'RepaymentReceived',
    data: {
      amountMinor: '100350',
      allocations: [
        { drawId: 'drw_a', feeMinor: '300', principalMinor: '100000', closesDraw: true },
        { drawId: 'drw_b', feeMinor: '50', principalMinor: '0', closesDraw: false },
      ],
      transaction: {
        kind: 'REPAYMENT',
        postings: [
          { ledgerAccount: 'world', currency: 'USDC', amountMinor: '-100350' },
          { ledgerAccount: 'credit_line', currency: 'USDC', amountMinor: '100000' },
          { ledgerAccount: 'fees', currency: 'USDC', amountMinor: '350' },
        ],
      },
    },
  })
  const after = liquidityFacilityDecider.evolve(facility.given(given).state, event!)
  t.equal(after.borrowedMinor, 200_000n)
  t.same(
    after.openDraws.map((d) => [d.drawId, d.feePaidMinor, d.principalRepaidMinor]),
    [['drw_b', 50n, 0n]],
  )
  // Later, drw_b owes its fee accrued then, less the 50 paid, plus its principal.
  facility
    .given([...given, event!])
    .when(repay('rpy_2', 200_000n + 600n - 50n, at(3, 1)))
    .thenMatches(t, [{ data: { allocations: [{ drawId: 'drw_b', feeMinor: '550', principalMinor: '200000', closesDraw: true }] } }])
})

t.test('a repayment above what is owed, or with nothing owed, is refused', async (t) => {
  const given = run([configure(), setTreasury(), takeDraw('drw_a', 100_000n, at(0))])
  facility
    .given(given)
    .when(repay('rpy_1', 100_101n, at(0, 1)))
    .thenThrows(t, 'repayment_exceeds_outstanding')
  facility
    .given(given)
    .when(repay('rpy_1', 100_100n, at(0, 1)))
    .thenMatches(t, [{ type: 'RepaymentReceived' }], 'exactly what is owed')
  facility
    .given(ready())
    .when(repay('rpy_1', 1n, at(0)))
    .thenThrows(t, 'repayment_exceeds_outstanding')
  facility
    .given(given)
    .when(repay('rpy_1', 0n, at(0)))
    .thenThrows(t, 'invalid_amount')
  const zeroFee = run([configure({ fundingFeeBpsPerHour: '0' }), setTreasury(), takeDraw('drw_a', 100_000n, at(0))])
  facility
    .given(zeroFee)
    .when(repay('rpy_1', 100_000n, at(5)))
    .thenMatches(
      t,
      [{ data: { transaction: { postings: [{ ledgerAccount: 'world' }, { ledgerAccount: 'credit_line', amountMinor: '100000' }] } } }],
      'no fee: a two-posting transaction',
    )
})

t.test('every event the decider makes is valid against its schema', async (t) => {
  const events = run([
    configure(),
    setTreasury(),
    takeDraw('drw_a', 100_000n, at(0)),
    takeDraw('drw_b', 1n, at(0)),
    repay('rpy_1', 100_150n, at(1, 5)),
  ])
  for (const e of events) t.ok(liquidityFacilityEventSchemas[e.type].safeParse(e.data).success, e.type)
})

t.test('property: random draws and repayments against an independent model', async (t) => {
  const LIMIT = 1_000_000n
  const step = fc.oneof(
    fc.record({ kind: fc.constant('draw' as const), amount: fc.bigInt({ min: 1n, max: 500_000n }), minutes: fc.nat(300) }),
    fc.record({ kind: fc.constant('repay' as const), share: fc.integer({ min: 1, max: 120 }), minutes: fc.nat(300) }),
  )
  fc.assert(
    fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
      let state = ready().reduce(liquidityFacilityDecider.evolve, liquidityFacilityDecider.initialState())
      let clock = Date.parse(T0)
      // The model: open draws as [id, principal, drawnAt, feePaid, principalPaid], oldest first.
      let model: { id: string; principal: bigint; drawnAt: string; feePaid: bigint; principalPaid: bigint }[] = []
      let drawnTotal = 0n
      let world = 0n
      let creditLine = 0n
      let fees = 0n
      for (const [i, s] of steps.entries()) {
        clock += s.minutes * 60_000
        const now = new Date(clock).toISOString()
        const borrowed = model.reduce((sum, d) => sum + d.principal - d.principalPaid, 0n)
        if (s.kind === 'draw') {
          const ok = s.amount <= 400_000n && s.amount <= LIMIT - borrowed
          let events: LiquidityFacilityEvent[] = []
          try {
            events = liquidityFacilityDecider.decide(takeDraw(`drw_${i}`, s.amount, now), state)
          } catch (error) {
            if (!(error instanceof DomainError) || ok) return false
          }
          if (ok !== (events.length === 1)) return false
          if (ok) {
            model.push({ id: `drw_${i}`, principal: s.amount, drawnAt: now, feePaid: 0n, principalPaid: 0n })
            drawnTotal += s.amount
            creditLine -= s.amount
          }
          state = events.reduce(liquidityFacilityDecider.evolve, state)
        } else {
          const owed = model.reduce((sum, d) => {
            const fee = accruedFee({ principalMinor: d.principal, drawnAt: d.drawnAt, terms: state.terms }, now) - d.feePaid
            return sum + (fee > 0n ? fee : 0n) + d.principal - d.principalPaid
          }, 0n)
          if (owed === 0n) continue
          const amount = (owed * BigInt(s.share)) / 100n + 1n
          let events: LiquidityFacilityEvent[] = []
          try {
            events = liquidityFacilityDecider.decide(repay(`rpy_${i}`, amount, now), state)
          } catch (error) {
            if (!(error instanceof DomainError) || amount <= owed) return false
            continue
          }
          if (amount > owed) return false
          const e = events[0]
          if (e?.type !== 'RepaymentReceived') return false
          for (const sum of sumsByCurrency(e.data.transaction.postings).values()) if (sum !== 0n) return false
          // The model pays oldest first, fee before principal.
          let left = amount
          for (const d of model) {
            const due = accruedFee({ principalMinor: d.principal, drawnAt: d.drawnAt, terms: state.terms }, now) - d.feePaid
            const fee = left < due ? left : due
            left -= fee
            d.feePaid += fee
            fees += fee
            const principal = left < d.principal - d.principalPaid ? left : d.principal - d.principalPaid
            left -= principal
            d.principalPaid += principal
            creditLine += principal
          }
          world -= amount
          model = model.filter((d) => d.principalPaid < d.principal)
          state = events.reduce(liquidityFacilityDecider.evolve, state)
        }
        const modelBorrowed = model.reduce((sum, d) => sum + d.principal - d.principalPaid, 0n)
        if (state.borrowedMinor !== modelBorrowed || state.borrowedMinor < 0n || state.borrowedMinor > LIMIT) return false
        if (remainingCredit(state) !== LIMIT - modelBorrowed) return false
        if (state.openDraws.map((d) => `${d.drawId}:${d.feePaidMinor}`).join() !== model.map((d) => `${d.id}:${d.feePaid}`).join())
          return false
        // Conservation: what the draws took from the credit line and the world paid back, in total.
        if (world + creditLine + fees + drawnTotal !== 0n) return false
      }
      return true
    }),
    { seed: 20261124, numRuns: 300 },
  )
  t.pass('300 random sequences agree with the model')
})
