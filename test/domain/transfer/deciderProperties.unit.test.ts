// Seeded random command sequences through the transfer decider (fast-check): whatever the order,
// every status move is in the table, every event fits its schema, refusals are 409s only, and the
// spec's invariants hold: FAILED only without funds, funded statuses always with funds, COMPLETED
// with every leg done, funded and completed at most once, transfer.failed never after funds.
import fc from 'fast-check'
import t from 'tap'
import { DomainError } from '../../../domain/errors.js'
import type { SandboxTrigger } from '../../../domain/rails/index.js'
import { type TransferCommand, type TransferState, transferDecider } from '../../../domain/transfer/decider.js'
import { type TransferEvent, transferEventSchemas } from '../../../domain/transfer/events.js'
import { nextStep } from '../../../domain/transfer/nextStep.js'
import { publicEventOf } from '../../../domain/publicEvents.js'
import { transferPublicEvents } from '../../../domain/transfer/publicEvents.js'
import { canMove } from '../../../domain/transfer/statuses.js'
import { SIDES, at, cmd, plan } from './transferFixtures.js'

const TOKENS = [
  'submit',
  'cancel',
  'fundBalance',
  'fundOtherHold',
  'fundDeposit',
  'fail',
  'failIfUnfunded',
  'advance',
  'tick',
  'staleTick',
  'scheduled',
  'reverse',
  'refund',
  'completeRefund',
] as const
type Token = (typeof TOKENS)[number]

function commandFor(token: Token, s: TransferState, now: string): TransferCommand {
  const updatedAt = s.status === 'none' ? now : s.updatedAt
  switch (token) {
    case 'submit':
      return cmd.submit(now)
    case 'cancel':
      return cmd.cancel(now)
    case 'fundBalance':
      return cmd.fundBalance(now)
    case 'fundOtherHold':
      return cmd.fundBalance(now, 'hld_01jdtfr00000000000000other')
    case 'fundDeposit':
      return cmd.fundDeposit(now)
    case 'fail':
      return cmd.fail(now)
    case 'failIfUnfunded':
      return cmd.fail(now, true)
    case 'advance':
      return cmd.advance(now)
    case 'tick':
      return cmd.tick(now, updatedAt)
    case 'staleTick':
      return cmd.tick(now, at(-1))
    case 'scheduled': {
      // Whatever the rails engine would schedule next (or a no-op tick when nothing).
      const step = s.status === 'none' ? null : nextStep(s, () => 1000)
      return step?.kind === 'assume_swift_settlement' ? cmd.assumeSwift(now, step.legIndex) : cmd.tick(now, updatedAt)
    }
    case 'reverse':
      return cmd.reverse(now)
    case 'refund':
      return cmd.refund(now)
    case 'completeRefund':
      return cmd.completeRefund(now)
  }
}

const planArb = fc.record({
  route: fc.constantFrom(
    [SIDES.usdBalance, SIDES.otherUsdBalance] as const,
    [SIDES.usdBalance, SIDES.sepa] as const,
    [SIDES.ethUsdc, SIDES.solUsdc] as const,
    [SIDES.ach, SIDES.ethUsdc] as const,
    [SIDES.usdBalance, SIDES.swiftUsd] as const,
  ),
  status: fc.constantFrom('DRAFT' as const, 'PENDING' as const),
  heldByPlatform: fc.boolean(),
  trigger: fc.constantFrom<SandboxTrigger | null>(
    null,
    'FAIL_BEFORE_FUNDING',
    'REVIEW_AFTER_FUNDING',
    'RETURN_AFTER_COMPLETION',
    'REVERSAL_AFTER_COMPLETION',
    'SWIFT_UNTRACKED',
  ),
  fee: fc.constantFrom(0n, 100n),
})

t.test('property: random command sequences keep the table and the spec’s invariants', async (t) => {
  let runs = 0
  const reached = new Set<string>()
  fc.assert(
    fc.property(planArb, fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }), (p, tokens) => {
      runs++
      const created = plan(p.route[0], p.route[1], {
        status: p.status,
        heldByPlatform: p.heldByPlatform,
        sandboxTrigger: p.trigger,
        fee: { fixedMinor: p.fee, percent: null },
      })
      let state: TransferState = transferDecider.initialState()
      const events: TransferEvent[] = []
      const apply = (e: TransferEvent) => {
        transferEventSchemas[e.type].parse(e.data)
        const next = transferDecider.evolve(state, e)
        if (state.status !== 'none' && next.status !== 'none' && next.status !== state.status && !canMove(state.status, next.status))
          throw new Error(`${e.type}: ${state.status} → ${next.status} is not in the table`)
        state = next
        events.push(e)
      }
      transferDecider.decide(cmd.create(created), state).forEach(apply)
      tokens.forEach((token, i) => {
        let decided: TransferEvent[]
        try {
          decided = transferDecider.decide(commandFor(token, state, at(i + 1)), state)
        } catch (error) {
          if (error instanceof DomainError && error.kind === 'conflict') return
          throw error
        }
        decided.forEach(apply)
      })
      if (state.status === 'none') return false
      reached.add(state.status)
      const fundedCount = events.filter((e) => e.type === 'TransferFunded').length
      const completedCount = events.filter((e) => e.type === 'TransferCompleted').length
      const fundedIndex = events.findIndex((e) => e.type === 'TransferFunded')
      const failedIndex = events.findIndex((e) => e.type === 'TransferFailed')
      if (fundedCount > 1 || completedCount > 1) throw new Error('funded or completed twice')
      if (state.status === 'FAILED' && state.funding) throw new Error('FAILED with funds')
      if (failedIndex >= 0 && fundedIndex >= 0) throw new Error('a failure and a funding on one transfer')
      if (['PROCESSING', 'IN_REVIEW', 'COMPLETED', 'REVERSED'].includes(state.status) && !state.funding)
        throw new Error(`${state.status} without funds`)
      if (state.status === 'COMPLETED' && !state.legs.every((leg) => leg.status === 'COMPLETED'))
        throw new Error('COMPLETED with a leg not done')
      if (state.currentLegIndex < 0 || state.currentLegIndex >= state.legs.length) throw new Error('leg index out of range')
      if (p.heldByPlatform && p.status === 'DRAFT' && events.some((e) => e.type === 'TransferSubmitted'))
        throw new Error('a platform-held draft was submitted')
      if (p.status === 'DRAFT' && fundedIndex >= 0 && !events.slice(0, fundedIndex).some((e) => e.type === 'TransferSubmitted'))
        throw new Error('a draft funded before it was submitted')
      for (const e of events) {
        const published = publicEventOf(transferPublicEvents, { type: e.type, data: e.data, recordedAt: new Date(0) })
        if (!published) throw new Error(`${e.type} has no public event`)
      }
      return true
    }),
    { seed: 20261124, numRuns: 1500 },
  )
  t.equal(runs >= 1500, true, `${runs} sequences`)
  t.same(
    [...reached].sort(),
    ['CANCELLED', 'COMPLETED', 'DRAFT', 'FAILED', 'IN_REVIEW', 'PENDING', 'PROCESSING', 'REVERSED'],
    'the sequences end in every status a command reaches',
  )
})
