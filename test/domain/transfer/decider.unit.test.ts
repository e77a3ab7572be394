// The transfer decider, given/when/then: the spec's rules (failure before funds is FAILED, an
// operational problem after funds is IN_REVIEW, a platform-held draft cannot be submitted, cancel
// only before funding), funding and its repeats, the rails engine's steps leg by leg (operator and
// timer), every sandbox trigger, the developer fee of a deposit-funded transfer, refunds, and
// organization and customer scoping.
import t from 'tap'
import { assertBalanced, sumsByCurrency } from '../../../domain/ledger/index.js'
import { SWIFT_UNTRACKED_SYSTEM_REMARK } from '../../../domain/rails/index.js'
import { transferDecider } from '../../../domain/transfer/decider.js'
import type { TransferEvent } from '../../../domain/transfer/events.js'
import { spec } from '../deciderSpec.js'
import {
  CUSTOMER,
  HOLD,
  ORG,
  ORIGINATOR,
  OTHER_CUSTOMER,
  OTHER_ORG,
  POOL,
  SIDES,
  TRANSFER,
  at,
  cmd,
  internalPlan,
  opened,
  plan,
  run,
} from './transferFixtures.js'

const transfer = spec(transferDecider)
const ref = (seconds: number) => ({ transferId: TRANSFER, organizationId: ORG, at: at(seconds) })
const types = (events: TransferEvent[]) => events.map((e) => e.type)

/** A deposit-funded transfer: USDC on Ethereum paid out as USDC on Solana. */
const cryptoPlan = (o: Parameters<typeof plan>[2] = {}) => plan(SIDES.ethUsdc, SIDES.solUsdc, o)

t.test('create: TransferCreated with the whole plan; a second create is transfer_exists', async (t) => {
  const p = internalPlan()
  transfer
    .given([])
    .when(cmd.create(p))
    .then(t, [{ type: 'TransferCreated', data: { ...p, transferId: TRANSFER, organizationId: ORG, at: at(0) } }])
  transfer
    .given(run([cmd.create(p)]))
    .when(cmd.create(p))
    .thenThrows(t, 'transfer_exists')
  const s = opened(run([cmd.create(p)]))
  t.equal(s.status, 'PENDING')
  t.equal(s.currentLegIndex, 0)
  t.ok(
    s.legs.every((leg) => leg.status === 'PENDING' && leg.startedAt === null),
    'every leg waits',
  )
})

t.test('failure before funds: TransferFailed (from DRAFT, PENDING_AUTHORIZATION or PENDING)', async (t) => {
  transfer
    .given(run([cmd.create(internalPlan())]))
    .when(cmd.fail(at(1)))
    .then(t, [{ type: 'TransferFailed', data: { ...ref(1), code: 'rail_down', reason: 'The rail is down' } }])
  transfer
    .given(run([cmd.create(internalPlan({ status: 'DRAFT' }))]))
    .when(cmd.fail(at(1)))
    .thenMatches(t, [{ type: 'TransferFailed' }])
  const failed = opened(run([cmd.create(internalPlan()), cmd.fail(at(1))]))
  t.equal(failed.status, 'FAILED')
  t.same(failed.failure, { code: 'rail_down', reason: 'The rail is down' })
  t.ok(
    failed.legs.every((leg) => leg.status === 'FAILED'),
    'no leg ran: all failed',
  )
  transfer
    .given(run([cmd.create(internalPlan()), cmd.fail(at(1))]))
    .when(cmd.fail(at(2)))
    .then(t, [], 'failing a failed transfer again decides nothing')
})

t.test('an operational problem after funds: TransferHeldForReview, never FAILED', async (t) => {
  const funded = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1))])
  transfer
    .given(funded)
    .when(cmd.fail(at(2)))
    .then(t, [
      {
        type: 'TransferHeldForReview',
        data: { ...ref(2), customerId: CUSTOMER, originator: ORIGINATOR, code: 'rail_down', reason: 'The rail is down' },
      },
    ])
  const reviewed = opened(run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2))]))
  t.equal(reviewed.status, 'IN_REVIEW')
  t.same(reviewed.review, { code: 'rail_down', reason: 'The rail is down' })
  t.equal(reviewed.failure, null, 'no failure recorded')
  transfer
    .given(run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2))]))
    .when(cmd.fail(at(3)))
    .then(t, [], 'a second problem while in review decides nothing')
  // After completion nothing is "in flight": no review, and certainly no FAILED.
  const completed = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  transfer
    .given(completed)
    .when(cmd.fail(at(4)))
    .thenThrows(t, 'transfer_invalid_transition')
})

t.test('a platform-held draft cannot be submitted; a caller’s draft can', async (t) => {
  const held = internalPlan({ status: 'DRAFT', createdBy: 'PLATFORM', heldByPlatform: true })
  transfer
    .given(run([cmd.create(held)]))
    .when(cmd.submit(at(1)))
    .thenThrows(t, 'transfer_held_by_platform')
  transfer
    .given(run([cmd.create(internalPlan({ status: 'DRAFT' }))]))
    .when(cmd.submit(at(1)))
    .then(t, [{ type: 'TransferSubmitted', data: { ...ref(1), customerId: CUSTOMER, originator: null, status: 'PENDING' } }])
  // Held drafts can still be cancelled or failed by the platform.
  transfer
    .given(run([cmd.create(held)]))
    .when(cmd.cancel(at(1)))
    .thenMatches(t, [{ type: 'TransferCancelled' }])
})

t.test('cancel only before funding', async (t) => {
  for (const status of ['DRAFT', 'PENDING'] as const)
    transfer
      .given(run([cmd.create(internalPlan({ status }))]))
      .when(cmd.cancel(at(1)))
      .then(t, [{ type: 'TransferCancelled', data: { ...ref(1), reason: 'changed my mind' } }], `from ${status}`)
  const cancelled = opened(run([cmd.create(internalPlan()), cmd.cancel(at(1))]))
  t.equal(cancelled.status, 'CANCELLED')
  t.equal(cancelled.cancelReason, 'changed my mind')
  t.ok(
    cancelled.legs.every((leg) => leg.status === 'CANCELLED'),
    'every leg cancelled',
  )
  transfer
    .given(run([cmd.create(internalPlan()), cmd.cancel(at(1))]))
    .when(cmd.cancel(at(2)))
    .then(t, [], 'again: nothing')
  transfer
    .given(run([cmd.create(internalPlan()), cmd.fundBalance(at(1))]))
    .when(cmd.cancel(at(2)))
    .thenThrows(t, 'transfer_invalid_transition', 'a funded transfer is not cancelled')
})

t.test('FundTransfer: PROCESSING with the first leg done; the same funding again is a no-op, another is 409', async (t) => {
  const pending = run([cmd.create(internalPlan())])
  transfer
    .given(pending)
    .when(cmd.fundBalance(at(1)))
    .then(t, [
      {
        type: 'TransferFunded',
        data: {
          ...ref(1),
          customerId: CUSTOMER,
          method: 'BALANCE',
          accountId: SIDES.usdBalance.accountId,
          holdId: HOLD,
          fundingCustomerId: CUSTOMER,
          note: null,
          originator: null,
          tracking: {},
        },
      },
    ])
  const funded = run([cmd.create(internalPlan()), cmd.fundBalance(at(1))])
  const s = opened(funded)
  t.equal(s.status, 'PROCESSING')
  t.equal(s.currentLegIndex, 1)
  t.match(s.legs[0], { status: 'COMPLETED', startedAt: at(1), completedAt: at(1) })
  t.match(s.legs[1], { status: 'PENDING' })
  t.same(s.funding, {
    method: 'BALANCE',
    accountId: SIDES.usdBalance.accountId,
    holdId: HOLD,
    fundingCustomerId: CUSTOMER,
    note: null,
    originator: null,
  })
  transfer
    .given(funded)
    .when(cmd.fundBalance(at(2)))
    .then(t, [], 'the same hold again')
  transfer
    .given(funded)
    .when(cmd.fundBalance(at(2), 'hld_01jdtfr000000000000000other'))
    .thenThrows(t, 'transfer_already_funded')
  transfer
    .given(funded)
    .when(cmd.fundBalance(at(2), HOLD, SIDES.otherUsdBalance.accountId))
    .thenThrows(t, 'transfer_already_funded', 'the same hold id on another account')
  transfer
    .given(funded)
    .when(cmd.fundDeposit(at(2)))
    .thenThrows(t, 'transfer_already_funded', 'a deposit after a hold')

  const deposited = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1))])
  transfer
    .given(deposited)
    .when(cmd.fundDeposit(at(2)))
    .then(t, [], 'a deposit again')
  transfer
    .given(deposited)
    .when(cmd.fundBalance(at(2)))
    .thenThrows(t, 'transfer_already_funded', 'a hold after a deposit')
  t.same(opened(deposited).legs[0]!.tracking, { achTraceNumber: POOL.achTraceNumber }, 'the deposit’s tracking on the first leg')

  transfer
    .given(run([cmd.create(internalPlan({ status: 'DRAFT' }))]))
    .when(cmd.fundBalance(at(1)))
    .thenThrows(t, 'transfer_not_submitted')
  transfer
    .given(run([cmd.create(internalPlan()), cmd.cancel(at(1))]))
    .when(cmd.fundBalance(at(2)))
    .thenThrows(t, 'transfer_not_awaiting_funds')
})

t.test('onlyIfUnfunded FailTransfer: a no-op once funded (or cancelled), a failure before', async (t) => {
  transfer
    .given(run([cmd.create(internalPlan()), cmd.fundBalance(at(1))]))
    .when(cmd.fail(at(2), true))
    .then(t, [])
  transfer
    .given(run([cmd.create(internalPlan()), cmd.cancel(at(1))]))
    .when(cmd.fail(at(2), true))
    .then(t, [])
  transfer
    .given(run([cmd.create(internalPlan())]))
    .when(cmd.fail(at(1), true))
    .thenMatches(t, [{ type: 'TransferFailed' }])
})

t.test('AdvanceTransfer walks the legs: start, complete, next; the last completion completes the transfer', async (t) => {
  // USD balance → EUR over SEPA: debit, USD → USDC, USDC → EUR, SEPA payout.
  const p = plan(SIDES.usdBalance, SIDES.sepa)
  t.same(
    p.legs.map((leg) => leg.type),
    ['BALANCE_DEBIT', 'CONVERT', 'CONVERT', 'PAYOUT_FIAT'],
  )
  const commands = [cmd.create(p), cmd.fundBalance(at(1))]
  for (let i = 2; i < 8; i++) commands.push(cmd.advance(at(i)))
  const events = run(commands)
  t.same(types(events), [
    'TransferCreated',
    'TransferFunded',
    'TransferLegStarted',
    'TransferLegCompleted',
    'TransferLegStarted',
    'TransferLegCompleted',
    'TransferLegStarted',
    'TransferLegCompleted',
    'TransferCompleted',
  ])
  t.same(
    events.flatMap((e) => ('index' in e.data ? [e.data.index] : [])),
    [1, 1, 2, 2, 3, 3],
    'leg by leg',
  )
  const done = opened(events)
  t.equal(done.status, 'COMPLETED')
  t.ok(
    done.legs.every((leg) => leg.status === 'COMPLETED' && leg.completedAt !== null),
    'every leg completed',
  )
  t.same(done.legs[1]!.tracking, {}, 'a conversion carries no rail ids')
  t.same(done.legs[3]!.tracking, { uetr: POOL.uetr }, 'the SEPA payout its UETR')
  t.equal(done.currentLegIndex, 3, 'stays on the last leg')
  const completed = events.at(-1)!
  t.match(completed.data, { systemRemark: null, transaction: null }, 'balance-funded: the fee is kept by the hold’s settlement')
  transfer
    .given(events)
    .when(cmd.advance(at(9)))
    .thenThrows(t, 'transfer_not_advanceable')
})

t.test('each payout rail stamps its own tracking ids', async (t) => {
  const payout = (destination: Parameters<typeof plan>[1], o: Parameters<typeof plan>[2] = {}) => {
    const p = plan(SIDES.usdBalance, destination, o)
    const steps = Array.from({ length: 2 * (p.legs.length - 1) }, (_, i) => cmd.advance(at(2 + i)))
    const events = run([cmd.create(p), cmd.fundBalance(at(1)), ...steps])
    t.equal(opened(events).status, 'COMPLETED', `${p.destination.paymentRail}: completed`)
    return opened(events).legs.at(-1)!.tracking
  }
  t.same(payout(SIDES.ach), { achTraceNumber: POOL.achTraceNumber }, 'ACH: trace number')
  t.same(payout(SIDES.wire), { imad: POOL.imad, omad: POOL.omad }, 'WIRE: IMAD and OMAD')
  t.same(payout(SIDES.swiftUsd), { uetr: POOL.uetr }, 'SWIFT: UETR')
  t.same(payout(SIDES.spei), {}, 'SPEI: none')
  t.same(payout(SIDES.solUsdc), { txHash: POOL.txHash.SOLANA }, 'a chain payout: its hash')
  const withFee = payout(SIDES.solUsdc, { fee: { fixedMinor: 100n, percent: null } })
  t.same(withFee, { txHash: POOL.txHash.SOLANA, feeTxHash: POOL.feeTxHash.SOLANA }, 'and the fee’s hash when a fee is charged')
})

t.test('timer mode: a step when `after` is the last change, a no-op when stale', async (t) => {
  const funded = run([cmd.create(internalPlan()), cmd.fundBalance(at(1))])
  transfer
    .given(funded)
    .when(cmd.tick(at(2), at(1)))
    .thenMatches(t, [{ type: 'TransferLegStarted', data: { index: 1 } }])
  transfer
    .given(funded)
    .when(cmd.tick(at(2), at(0)))
    .then(t, [], 'scheduled before the funding: stale')
  transfer
    .given(funded)
    .when(cmd.tick(at(2), at(5)))
    .then(t, [], 'any other moment: stale')
  const pending = run([cmd.create(internalPlan())])
  transfer
    .given(pending)
    .when(cmd.tick(at(2), at(0)))
    .then(t, [], 'nothing to do: a timer decides nothing')
  transfer
    .given(pending)
    .when(cmd.advance(at(2)))
    .thenThrows(t, 'transfer_not_advanceable', 'an operator is told')
})

t.test('sandbox FAIL_BEFORE_FUNDING: a pending transfer fails on the rails’ step', async (t) => {
  const given = run([cmd.create(cryptoPlan({ sandboxTrigger: 'FAIL_BEFORE_FUNDING' }))])
  transfer
    .given(given)
    .when(cmd.tick(at(1), at(0)))
    .then(t, [
      {
        type: 'TransferFailed',
        data: { ...ref(1), code: 'rail_rejected', reason: 'The rail rejected the transfer before funds were received (sandbox trigger)' },
      },
    ])
  transfer
    .given(given)
    .when(cmd.advance(at(1)))
    .thenMatches(t, [{ type: 'TransferFailed' }])
})

t.test('sandbox REVIEW_AFTER_FUNDING: review once, cleared by an operator, then the legs run', async (t) => {
  const p = cryptoPlan({ sandboxTrigger: 'REVIEW_AFTER_FUNDING' })
  const funded = run([cmd.create(p), cmd.fundDeposit(at(1))])
  transfer
    .given(funded)
    .when(cmd.tick(at(2), at(1)))
    .then(t, [
      {
        type: 'TransferHeldForReview',
        data: {
          ...ref(2),
          customerId: CUSTOMER,
          originator: ORIGINATOR,
          code: 'compliance_review',
          reason: 'Held for an operational review after funds were received (sandbox trigger)',
        },
      },
    ])
  const reviewed = run([cmd.create(p), cmd.fundDeposit(at(1)), cmd.advance(at(2))])
  t.equal(opened(reviewed).status, 'IN_REVIEW')
  t.ok(opened(reviewed).reviewed)
  transfer
    .given(reviewed)
    .when(cmd.tick(at(3), at(2)))
    .then(t, [], 'a timer never clears a review')
  transfer
    .given(reviewed)
    .when(cmd.advance(at(3)))
    .then(t, [{ type: 'TransferReviewCleared', data: { ...ref(3), customerId: CUSTOMER, originator: ORIGINATOR } }])
  const rest = run([cmd.create(p), cmd.fundDeposit(at(1)), cmd.advance(at(2)), cmd.advance(at(3)), cmd.advance(at(4)), cmd.advance(at(5))])
  t.same(
    types(rest).slice(3),
    ['TransferReviewCleared', 'TransferLegStarted', 'TransferLegCompleted', 'TransferCompleted'],
    'no second review',
  )
  t.equal(opened(rest).review, null, 'the review is cleared')
})

t.test('sandbox RETURN_AFTER_COMPLETION and REVERSAL_AFTER_COMPLETION: reversed after completing', async (t) => {
  for (const [trigger, code, reason] of [
    ['RETURN_AFTER_COMPLETION', 'R01', 'Returned by the receiving bank: R01 insufficient funds'],
    ['REVERSAL_AFTER_COMPLETION', 'reversal', 'Reversed by the rail after completion'],
  ] as const) {
    const completed = run([
      cmd.create(plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: trigger })),
      cmd.fundBalance(at(1)),
      cmd.advance(at(2)),
      cmd.advance(at(3)),
    ])
    t.equal(opened(completed).status, 'COMPLETED', `${trigger}: completes first`)
    transfer
      .given(completed)
      .when(cmd.tick(at(4), at(3)))
      .then(
        t,
        [{ type: 'TransferReversed', data: { ...ref(4), code, reason, returnedToAccountId: SIDES.usdBalance.accountId } }],
        `${trigger}: back to the balance that paid`,
      )
    const reversed = opened(run([...completedCommands(trigger), cmd.advance(at(4))]))
    t.equal(reversed.status, 'REVERSED')
    t.equal(reversed.returnedToAccountId, SIDES.usdBalance.accountId)
    t.equal(reversed.returnedAt, at(4))
    t.same(reversed.reversal, { code, reason })
  }
  // A deposit-funded transfer goes back to the source's refund account (null when it has none).
  const refundTo = 'inw_01jdtfr000000000000refund1'
  const deposit = run([
    cmd.create(cryptoPlan({ sandboxTrigger: 'RETURN_AFTER_COMPLETION', refundAccountId: refundTo })),
    cmd.fundDeposit(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
  ])
  transfer
    .given(deposit)
    .when(cmd.advance(at(4)))
    .thenMatches(t, [{ type: 'TransferReversed', data: { returnedToAccountId: refundTo } }])
})

const completedCommands = (trigger: 'RETURN_AFTER_COMPLETION' | 'REVERSAL_AFTER_COMPLETION') => [
  cmd.create(plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: trigger })),
  cmd.fundBalance(at(1)),
  cmd.advance(at(2)),
  cmd.advance(at(3)),
]

t.test('sandbox SWIFT_UNTRACKED: the payout never completes by advance; the 24-hour assumption completes it', async (t) => {
  const p = plan(SIDES.usdBalance, SIDES.swiftUsd, { sandboxTrigger: 'SWIFT_UNTRACKED' })
  const started = run([cmd.create(p), cmd.fundBalance(at(1)), cmd.advance(at(2))])
  const s = opened(started)
  t.match(s.legs[1], { type: 'PAYOUT_FIAT', outputRail: 'SWIFT', status: 'IN_PROGRESS' })
  t.same(s.legs[1]!.tracking, {}, 'no UETR: untracked')
  transfer
    .given(started)
    .when(cmd.advance(at(3)))
    .thenThrows(t, 'transfer_not_advanceable')
  transfer
    .given(started)
    .when(cmd.tick(at(3), at(2)))
    .then(t, [])
  transfer
    .given(started)
    .when(cmd.assumeSwift(at(86_402), 1))
    .then(t, [
      { type: 'TransferLegCompleted', data: { ...ref(86_402), customerId: CUSTOMER, originator: null, index: 1, tracking: {} } },
      { type: 'TransferCompleted', data: { ...ref(86_402), systemRemark: SWIFT_UNTRACKED_SYSTEM_REMARK, transaction: null } },
    ])
  transfer
    .given(started)
    .when(cmd.assumeSwift(at(86_402), 0))
    .then(t, [], 'another leg: nothing')
  const done = run([cmd.create(p), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.assumeSwift(at(86_402), 1)])
  t.equal(opened(done).systemRemark, SWIFT_UNTRACKED_SYSTEM_REMARK)
  transfer
    .given(done)
    .when(cmd.assumeSwift(at(86_403), 1))
    .then(t, [], 'a late timer after completion: nothing')
  // Without the trigger the SWIFT payout is tracked and completes on the next step.
  const tracked = run([cmd.create(plan(SIDES.usdBalance, SIDES.swiftUsd)), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  t.equal(opened(tracked).status, 'COMPLETED')
  t.equal(opened(tracked).systemRemark, null)
})

t.test('a deposit-funded completion keeps the developer fee: one balanced FEE transaction, world → fees', async (t) => {
  const p = cryptoPlan({ fee: { fixedMinor: 1_000_000n, percent: '0.01' } })
  t.equal(p.fee.amountMinor, '101000000', '1 USDC + 1% of 10 000 USDC')
  const events = run([cmd.create(p), cmd.fundDeposit(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  const completed = events.at(-1)!
  t.equal(completed.type, 'TransferCompleted')
  const tx = completed.type === 'TransferCompleted' ? completed.data.transaction : null
  t.ok(tx, 'a transaction')
  if (!tx) return
  t.doesNotThrow(() => assertBalanced(tx))
  t.equal(tx.kind, 'FEE')
  t.equal(tx.id, `fee:${TRANSFER}`)
  t.same(
    [...tx.postings].sort((a, b) => a.ledgerAccount.localeCompare(b.ledgerAccount)),
    [
      { ledgerAccount: 'fees', currency: 'USDC', amountMinor: '101000000' },
      { ledgerAccount: 'world', currency: 'USDC', amountMinor: '-101000000' },
    ],
  )
  t.same([...sumsByCurrency(tx.postings).values()], [0n])

  const free = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  t.match(free.at(-1), { type: 'TransferCompleted', data: { transaction: null } }, 'no fee: no transaction')
})

t.test('refunds: from review (reversed, then refunded) or after a reversal; completed once', async (t) => {
  const reviewed = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2))])
  const refundTo = 'inw_01jdtfr000000000000refund1'
  transfer
    .given(reviewed)
    .when(cmd.refund(at(3), refundTo))
    .then(t, [
      { type: 'TransferReversed', data: { ...ref(3), code: 'refunded', reason: 'returned to sender', returnedToAccountId: refundTo } },
      {
        type: 'TransferRefundInitiated',
        data: {
          ...ref(3),
          refundTransferId: null,
          reason: 'returned to sender',
          amount: { currency: 'USDC', amountMinor: '10000000000' },
          address: '0xrefund',
          externalAccountId: null,
          returnedToAccountId: refundTo,
        },
      },
    ])
  const refunding = run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2)), cmd.refund(at(3))])
  const s = opened(refunding)
  t.equal(s.status, 'REVERSED')
  t.match(s.refund, { status: 'PENDING', initiatedAt: at(3), completedAt: null, txHash: null })
  transfer
    .given(refunding)
    .when(cmd.refund(at(4)))
    .then(t, [], 'a second refund: nothing')
  transfer
    .given(refunding)
    .when(cmd.completeRefund(at(4)))
    .then(t, [{ type: 'TransferRefundCompleted', data: { ...ref(4), txHash: '0xrefundhash' } }])
  const refunded = opened(
    run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2)), cmd.refund(at(3)), cmd.completeRefund(at(4))]),
  )
  t.match(refunded.refund, { status: 'COMPLETED', txHash: '0xrefundhash', completedAt: at(4) })
  t.equal(refunded.returnedAt, at(4), 'returned when the refund completed')
  transfer
    .given(run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2)), cmd.refund(at(3)), cmd.completeRefund(at(4))]))
    .when(cmd.completeRefund(at(5)))
    .then(t, [], 'completed once')

  // After a reversal by the rail: refunded without another status move.
  const reversed = run([...completedCommands('REVERSAL_AFTER_COMPLETION'), cmd.advance(at(4))])
  transfer
    .given(reversed)
    .when(cmd.refund(at(5)))
    .thenMatches(t, [{ type: 'TransferRefundInitiated' }])

  transfer
    .given(run([cmd.create(cryptoPlan())]))
    .when(cmd.refund(at(1)))
    .thenThrows(t, 'transfer_not_funded')
  transfer
    .given(run([cmd.create(cryptoPlan()), cmd.fundDeposit(at(1))]))
    .when(cmd.refund(at(2)))
    .thenThrows(t, 'transfer_not_refundable')
  transfer
    .given(reviewed)
    .when(cmd.completeRefund(at(3)))
    .thenThrows(t, 'transfer_not_refunding')
})

t.test('scoping: another organization or another customer’s key sees no transfer', async (t) => {
  const given = run([cmd.create(internalPlan({ status: 'DRAFT' }))])
  transfer
    .given(given)
    .when(cmd.submit(at(1), { organizationId: OTHER_ORG }))
    .thenThrows(t, 'resource_not_found')
  transfer
    .given(given)
    .when(cmd.submit(at(1), { onBehalfOf: OTHER_CUSTOMER }))
    .thenThrows(t, 'resource_not_found')
  transfer
    .given(given)
    .when(cmd.submit(at(1), { onBehalfOf: CUSTOMER }))
    .thenMatches(t, [{ type: 'TransferSubmitted' }], 'the source customer’s own key')
  transfer
    .given([])
    .when(cmd.submit(at(1)))
    .thenThrows(t, 'resource_not_found', 'no transfer at all')
  try {
    transferDecider.decide(cmd.submit(at(1), { organizationId: OTHER_ORG }), transferDecider.initialState())
  } catch (error) {
    t.match(error, { kind: 'not_found' }, 'a 404, not a 403')
  }
})

t.test('evolve: nothing before TransferCreated', async (t) => {
  const [, funded] = run([cmd.create(internalPlan()), cmd.fundBalance(at(1))])
  t.throws(() => transferDecider.evolve(transferDecider.initialState(), funded!), /before TransferCreated/)
})

t.test('a received deposit (a fixed route sweep): created and funded in one decision, held when asked; once', async (t) => {
  const p = { ...plan(SIDES.ethUsdc, SIDES.solUsdc), createdBy: 'PLATFORM' as const }
  const receive = {
    type: 'ReceiveDeposit' as const,
    organizationId: ORG,
    transferId: TRANSFER,
    now: at(0),
    transfer: p,
    originator: ORIGINATOR,
    tracking: { txHash: '0xabc' },
    hold: null,
    refusal: null,
  }
  const events = transferDecider.decide(receive, transferDecider.initialState())
  t.same(types(events), ['TransferCreated', 'TransferFunded'])
  t.match(events[0]!.data, { originator: ORIGINATOR, status: 'PENDING', funding: 'DEPOSIT' }, 'the remitter known from creation')
  const s = opened(events)
  t.equal(s.status, 'PROCESSING')
  t.match(s.funding, { method: 'DEPOSIT', originator: ORIGINATOR })
  t.equal(s.legs[0]!.status, 'COMPLETED', 'the deposit leg is done')
  transfer
    .given(events)
    .when({ ...receive, hold: { code: 'x', reason: 'y' } })
    .then(t, [], 'the same deposit again: nothing')
  const held = transferDecider.decide(
    { ...receive, hold: { code: 'deposit_unattributed', reason: 'no bank' } },
    transferDecider.initialState(),
  )
  t.same(types(held), ['TransferCreated', 'TransferFunded', 'TransferHeldForReview'])
  t.equal(opened(held).status, 'IN_REVIEW')
  const refusal = { code: 'rail_not_accepted', message: 'no', details: [] }
  transfer
    .given([])
    .when({ ...receive, refusal })
    .thenThrows(t, 'rail_not_accepted')
  transfer
    .given(events)
    .when({ ...receive, refusal })
    .then(t, [], 'refused only when new')
  transfer
    .given(events)
    .when({ ...receive, organizationId: OTHER_ORG })
    .thenThrows(t, 'resource_not_found')
})
