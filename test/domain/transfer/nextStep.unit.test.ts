// What the rails engine does next (domain/transfer/nextStep.ts): nothing while a transfer waits
// for its deposit, an operator or is final; the current leg's rail's step otherwise (a conversion
// on BALANCE); the 24-hour assumption for an untracked SWIFT payout; and a step timer it
// schedules, once fired, always makes the decider move.
import t from 'tap'
import { SWIFT_LIMITS } from '../../../domain/rails/index.js'
import { transferDecider } from '../../../domain/transfer/decider.js'
import type { TransferEvent } from '../../../domain/transfer/events.js'
import { awaitingBalanceCredit } from '../../../domain/transfer/moneyInTransit.js'
import { nextStep } from '../../../domain/transfer/nextStep.js'
import { SIDES, at, cmd, eventsTo, internalPlan, opened, plan, run } from './transferFixtures.js'

/** A delay per rail that tells them apart: 1 000 ms per letter of the rail's name. */
const delay = (rail: string) => rail.length * 1000
const after = (iso: string, ms: number) => new Date(Date.parse(iso) + ms)

t.test('nothing to do: a transfer waiting for funds, an operator, or final', async (t) => {
  for (const status of ['DRAFT', 'PENDING_AUTHORIZATION', 'PENDING', 'IN_REVIEW', 'COMPLETED', 'FAILED', 'CANCELLED', 'REVERSED'] as const)
    t.equal(nextStep(opened(eventsTo(status)), delay), null, status)
})

t.test('a processing transfer: the current leg’s rail, after its delay from the last change', async (t) => {
  const funded = opened(run([cmd.create(plan(SIDES.usdBalance, SIDES.sepa)), cmd.fundBalance(at(1))]))
  t.same(nextStep(funded, delay), { kind: 'advance', rail: 'BALANCE', dueAt: after(at(1), 7000) }, 'a conversion happens on BALANCE')
  const payout = opened(
    run([
      cmd.create(plan(SIDES.usdBalance, SIDES.ach)),
      cmd.fundBalance(at(1)),
      cmd.advance(at(2)), // payout started
    ]),
  )
  t.same(nextStep(payout, delay), { kind: 'advance', rail: 'ACH', dueAt: after(at(2), 3000) }, 'the ACH payout on ACH')
  const chain = opened(run([cmd.create(plan(SIDES.ethUsdc, SIDES.solUsdc)), cmd.fundDeposit(at(1))]))
  t.same(nextStep(chain, delay), { kind: 'advance', rail: 'SOLANA', dueAt: after(at(1), 6000) }, 'a chain payout on its chain')
})

t.test('sandbox triggers: fail before funding on the source rail, the return on the destination rail', async (t) => {
  const failing = opened(run([cmd.create(plan(SIDES.ethUsdc, SIDES.solUsdc, { sandboxTrigger: 'FAIL_BEFORE_FUNDING' }))]))
  t.same(nextStep(failing, delay), { kind: 'advance', rail: 'ETHEREUM', dueAt: after(at(0), 8000) })
  for (const trigger of ['RETURN_AFTER_COMPLETION', 'REVERSAL_AFTER_COMPLETION'] as const) {
    const completed = opened(
      run([
        cmd.create(plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: trigger })),
        cmd.fundBalance(at(1)),
        cmd.advance(at(2)),
        cmd.advance(at(3)),
      ]),
    )
    t.equal(completed.status, 'COMPLETED')
    t.same(nextStep(completed, delay), { kind: 'advance', rail: 'ACH', dueAt: after(at(3), 3000) }, trigger)
  }
  const reviewed = opened(
    run([cmd.create(plan(SIDES.ethUsdc, SIDES.solUsdc, { sandboxTrigger: 'REVIEW_AFTER_FUNDING' })), cmd.fundDeposit(at(1))]),
  )
  t.same(nextStep(reviewed, delay), { kind: 'advance', rail: 'SOLANA', dueAt: after(at(1), 6000) }, 'the step that puts it in review')
})

t.test('an untracked SWIFT payout: the assumption 24 hours after the payout started', async (t) => {
  const p = plan(SIDES.usdBalance, SIDES.swiftUsd, { sandboxTrigger: 'SWIFT_UNTRACKED' })
  const funded = opened(run([cmd.create(p), cmd.fundBalance(at(1))]))
  t.same(nextStep(funded, delay), { kind: 'advance', rail: 'SWIFT', dueAt: after(at(1), 5000) }, 'first the payout starts')
  const started = opened(run([cmd.create(p), cmd.fundBalance(at(1)), cmd.advance(at(2))]))
  t.same(nextStep(started, delay), {
    kind: 'assume_swift_settlement',
    legIndex: 1,
    dueAt: after(at(2), SWIFT_LIMITS.untrackedAutoCompleteAfterMs),
  })
  t.equal(SWIFT_LIMITS.untrackedAutoCompleteAfterMs, 24 * 60 * 60 * 1000)
})

t.test('every step timer, fired on time, makes the decider move (until nothing is left)', async (t) => {
  const plans = [
    internalPlan(),
    plan(SIDES.usdBalance, SIDES.sepa),
    plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: 'RETURN_AFTER_COMPLETION' }),
    plan(SIDES.ethUsdc, SIDES.solUsdc, { sandboxTrigger: 'REVIEW_AFTER_FUNDING' }),
    plan(SIDES.ethUsdc, SIDES.solUsdc, { sandboxTrigger: 'FAIL_BEFORE_FUNDING' }),
    plan(SIDES.usdBalance, SIDES.swiftUsd, { sandboxTrigger: 'SWIFT_UNTRACKED' }),
  ]
  for (const p of plans) {
    const fund = p.funding === 'BALANCE' ? cmd.fundBalance(at(1)) : cmd.fundDeposit(at(1))
    const events: TransferEvent[] = run(p.sandboxTrigger === 'FAIL_BEFORE_FUNDING' ? [cmd.create(p)] : [cmd.create(p), fund])
    for (let i = 0; i < 12; i++) {
      const state = opened(events)
      const step = nextStep(state, delay)
      if (!step) break
      const now = step.dueAt.toISOString()
      const command = step.kind === 'advance' ? cmd.tick(now, state.updatedAt) : cmd.assumeSwift(now, step.legIndex)
      const decided = transferDecider.decide(command, state)
      t.ok(decided.length > 0, `${p.flow} ${p.sandboxTrigger ?? ''} ${state.status}: the timer moves it`)
      events.push(...decided)
    }
    const end = opened(events)
    t.ok(
      ['COMPLETED', 'IN_REVIEW', 'FAILED', 'REVERSED'].includes(end.status) || awaitingBalanceCredit(end),
      `${p.flow} ${p.sandboxTrigger ?? ''}: ends at rest (or at a balance credit, which the transfer workflow applies)`,
    )
  }
})

t.test('a balance credit leg waits for the transfer workflow: no timer, and a timer fired anyway decides nothing', async (t) => {
  const crediting = opened(run([cmd.create(internalPlan()), cmd.fundBalance(at(1)), cmd.advance(at(2))]))
  t.ok(awaitingBalanceCredit(crediting), 'the credit leg is in progress')
  t.equal(nextStep(crediting, delay), null, 'no timer')
  t.same(transferDecider.decide(cmd.tick(at(3), crediting.updatedAt), crediting), [], 'a stale timer decides nothing')
  const completed = opened(run([cmd.create(internalPlan()), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.deliver(at(3))]))
  t.equal(completed.status, 'COMPLETED', 'the delivery completes it')
  for (const trigger of ['RETURN_AFTER_COMPLETION', 'REVERSAL_AFTER_COMPLETION'] as const) {
    const p = internalPlan({ sandboxTrigger: trigger })
    const done = opened(run([cmd.create(p), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.deliver(at(3))]))
    t.equal(nextStep(done, delay), null, `${trigger}: a rail never returns a transfer into a balance`)
  }
})
