// The status a transfer's public event names is the status evolve leaves the transfer in: both come
// from one table (domain/transfer/statusAfter.ts). Realistic histories, each decided by the real
// decider, are folded event by event; after each, its public event's data.status must equal the
// evolved state's status. Together the histories reach every transfer event type.
import t from 'tap'
import { publicEventOf } from '../../../domain/publicEvents.js'
import { type TransferState, transferDecider } from '../../../domain/transfer/decider.js'
import { type TransferEvent, transferEventSchemas } from '../../../domain/transfer/events.js'
import { transferPublicEvents } from '../../../domain/transfer/publicEvents.js'
import { SIDES, agentApprovalAsked, agentDecision, at, cmd, eventsTo, internalPlan, plan, run } from './transferFixtures.js'

const cryptoPlan = (o: Parameters<typeof plan>[2] = {}) => plan(SIDES.ethUsdc, SIDES.solUsdc, o)
const payout = () => plan(SIDES.usdBalance, SIDES.ach)
const returnedPayout = () => plan(SIDES.usdBalance, SIDES.ach, { sandboxTrigger: 'RETURN_AFTER_COMPLETION' })
const crediting = [cmd.create(internalPlan()), cmd.fundBalance(at(1)), cmd.advance(at(2))]
const refunding = [cmd.create(cryptoPlan()), cmd.fundDeposit(at(1)), cmd.fail(at(2)), cmd.refund(at(3), SIDES.usdcBalance.accountId)]

const HISTORIES: Record<string, TransferEvent[]> = {
  'draft, submitted, cancelled': run([cmd.create(internalPlan({ status: 'DRAFT' })), cmd.submit(at(1)), cmd.cancel(at(2))]),
  'draft submitted for an approval': eventsTo('PENDING_AUTHORIZATION'),
  'agent approval granted': run([...agentApprovalAsked, agentDecision(at(2), 'APPROVED')]),
  'agent approval declined': run([...agentApprovalAsked, agentDecision(at(2), 'DECLINED')]),
  'internal, failed before funds': run([cmd.create(internalPlan()), cmd.fail(at(1))]),
  'crypto deposit with a fee, completed': run([
    cmd.create(cryptoPlan({ fee: { fixedMinor: 100n, percent: null } })),
    cmd.fundDeposit(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
  ]),
  'held for review after funds, cleared, completed': run([
    cmd.create(cryptoPlan({ sandboxTrigger: 'REVIEW_AFTER_FUNDING' })),
    cmd.fundDeposit(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
    cmd.advance(at(4)),
    cmd.advance(at(5)),
  ]),
  'SWIFT untracked, assumed settled': run([
    cmd.create(plan(SIDES.usdBalance, SIDES.swiftUsd, { sandboxTrigger: 'SWIFT_UNTRACKED' })),
    cmd.fundBalance(at(1)),
    cmd.advance(at(2)),
    cmd.assumeSwift(at(86_402), 1),
  ]),
  'internal, delivered, reversed once reclaimed': run([...crediting, cmd.deliver(at(3)), cmd.reverse(at(4), true)]),
  'deposit in review, refunded': run([...refunding, cmd.completeRefund(at(4))]),
  'refund refused, held, sent out of the service': run([...refunding, cmd.suspend(at(4), 'REFUND', 'world'), cmd.resolve(at(5), null)]),
  'delivery refused, held, cleared, delivered': run([
    ...crediting,
    cmd.suspend(at(3), 'DELIVERY', 'clearing'),
    cmd.advance(at(4)),
    cmd.deliver(at(5)),
  ]),
  'delivery refused, held, sent to an account (first reversal)': run([
    ...crediting,
    cmd.suspend(at(3), 'DELIVERY', 'clearing'),
    cmd.resolve(at(4), SIDES.usdBalance.accountId),
  ]),
  'payout returned by the rail, its money held, resolved': run([
    cmd.create(returnedPayout()),
    cmd.fundBalance(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
    cmd.advance(at(4)),
    cmd.suspend(at(5), 'RETURN', 'world'),
    cmd.resolve(at(6), null),
  ]),
  'payout completed, reversed': run([
    cmd.create(payout()),
    cmd.fundBalance(at(1)),
    cmd.advance(at(2)),
    cmd.advance(at(3)),
    cmd.reverse(at(4)),
  ]),
}

/** The evolved status and the published one after each event of a history. */
function statusesOf(events: TransferEvent[]): { type: TransferEvent['type']; evolved: string; published: unknown }[] {
  let state: TransferState = transferDecider.initialState()
  return events.map((event) => {
    state = transferDecider.evolve(state, event)
    const published = publicEventOf(transferPublicEvents, { type: event.type, data: event.data, recordedAt: new Date(at(0)) })
    return { type: event.type, evolved: state.status, published: published?.data.status }
  })
}

t.test('every public event names the status evolve leaves the transfer in', async (t) => {
  for (const [name, events] of Object.entries(HISTORIES))
    for (const [i, step] of statusesOf(events).entries())
      t.equal(step.published, step.evolved, `${name}, event ${i + 1} (${step.type}): ${step.evolved}`)
})

t.test('the histories reach every transfer event type, and each has a public event', async (t) => {
  const reached = new Set(Object.values(HISTORIES).flatMap((events) => events.map((e) => e.type)))
  t.same([...reached].sort(), Object.keys(transferEventSchemas).sort())
  for (const events of Object.values(HISTORIES))
    for (const e of events)
      t.ok(publicEventOf(transferPublicEvents, { type: e.type, data: e.data, recordedAt: new Date(at(0)) }), `${e.type} is published`)
})
