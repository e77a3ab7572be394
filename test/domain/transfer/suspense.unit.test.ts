// Money of a transfer held in suspense (domain/transfer/suspense.ts), given/when/then on the real
// decider: a refused credit holds the money (from clearing, the world or the mint) and puts the
// transfer IN_REVIEW, once; an operator sends it to an account (REVERSED, the workflow credits it) or
// out of the service (suspense to the world); a cleared review of a refused delivery puts the money
// back for another try; nothing else moves held money (no refund, no reversal, no second hold).
// Also the delivery leg (CompleteDelivery) and the reversal of a transfer into a balance.
import t from 'tap'
import { spec } from '../deciderSpec.js'
import { transferDecider } from '../../../domain/transfer/decider.js'
import { heldFunds } from '../../../domain/transfer/suspense.js'
import { SIDES, TRANSFER, at, cmd, internalPlan, opened, plan, run } from './transferFixtures.js'

const transfer = spec(transferDecider)
const ref = (seconds: number) => ({ transferId: TRANSFER, organizationId: 'org_01jdtfr0000000000000000001', at: at(seconds) })
const crediting = () => run([cmd.create(internalPlan()), cmd.fundBalance(at(1)), cmd.advance(at(2))])
const held = () =>
  run([...[cmd.create(internalPlan()), cmd.fundBalance(at(1)), cmd.advance(at(2))], cmd.suspend(at(3), 'DELIVERY', 'clearing')])
const amount = internalPlan().destinationAmount

t.test('a refused delivery holds the destination amount in suspense, from clearing: IN_REVIEW', async (t) => {
  transfer
    .given(crediting())
    .when(cmd.suspend(at(3), 'DELIVERY', 'clearing'))
    .thenMatches(t, [
      {
        type: 'TransferFundsSuspended',
        data: {
          ...ref(3),
          stage: 'DELIVERY',
          code: 'destination_unavailable',
          amount,
          transaction: {
            id: `suspend:${TRANSFER}:1`,
            kind: 'SUSPENSE',
            postings: [
              { ledgerAccount: 'clearing', currency: 'USD', amountMinor: `-${amount.amountMinor}` },
              { ledgerAccount: 'suspense', currency: 'USD', amountMinor: amount.amountMinor },
            ],
          },
        },
      },
    ])
  const state = opened(held())
  t.equal(state.status, 'IN_REVIEW')
  t.match(heldFunds(state), { stage: 'DELIVERY', amount })
  transfer
    .given(held())
    .when(cmd.suspend(at(4), 'DELIVERY', 'clearing'))
    .then(t, [], 'held already: a replay decides nothing')
})

t.test('the stage must match where the transfer is', async (t) => {
  transfer
    .given(crediting())
    .when(cmd.suspend(at(3), 'RETURN', 'world'))
    .thenThrows(t, 'transfer_invalid_transition')
  transfer
    .given(crediting())
    .when(cmd.suspend(at(3), 'RESOLUTION', null))
    .thenThrows(t, 'transfer_invalid_transition')
  const pending = run([cmd.create(internalPlan())])
  transfer
    .given(pending)
    .when(cmd.suspend(at(1), 'DELIVERY', 'clearing'))
    .thenThrows(t, 'transfer_invalid_transition')
})

t.test('resolution: to an account (REVERSED, credited by the workflow) or released to the world', async (t) => {
  const toAccount = opened([...held(), ...transferDecider.decide(cmd.resolve(at(4), SIDES.usdBalance.accountId), opened(held()))])
  t.equal(toAccount.status, 'REVERSED')
  t.equal(toAccount.returnedToAccountId, SIDES.usdBalance.accountId)
  t.match(toAccount.suspended, { resolution: { accountId: SIDES.usdBalance.accountId } })
  t.equal(heldFunds(toAccount), undefined, 'nothing held any more')
  const [released] = transferDecider.decide(cmd.resolve(at(4), null), opened(held()))
  t.match(released, {
    type: 'TransferSuspenseResolved',
    data: {
      accountId: null,
      firstReversal: true,
      transaction: {
        id: `release:${TRANSFER}:1`,
        postings: [
          { ledgerAccount: 'suspense', amountMinor: `-${amount.amountMinor}` },
          { ledgerAccount: 'world', amountMinor: amount.amountMinor },
        ],
      },
    },
  })
  transfer
    .given(crediting())
    .when(cmd.resolve(at(3), null))
    .thenThrows(t, 'transfer_funds_not_held')
})

t.test('a resolution refused in turn is held again, its money already in suspense', async (t) => {
  const resolved = [...held(), ...transferDecider.decide(cmd.resolve(at(4), SIDES.usdBalance.accountId), opened(held()))]
  const again = transferDecider.decide(cmd.suspend(at(5), 'RESOLUTION', null), opened(resolved))
  t.match(again, [{ type: 'TransferFundsSuspended', data: { stage: 'RESOLUTION', amount, transaction: null } }])
  const state = opened([...resolved, ...again])
  t.equal(state.status, 'IN_REVIEW')
  t.equal(state.suspensions, 1, 'no new movement: the money never left suspense')
})

t.test('a cleared review of a refused delivery sends the money back for another delivery', async (t) => {
  const [cleared] = transferDecider.decide(cmd.advance(at(4)), opened(held()))
  t.match(cleared, {
    type: 'TransferReviewCleared',
    data: {
      transaction: {
        id: `unsuspend:${TRANSFER}:1`,
        postings: [{ ledgerAccount: 'suspense' }, { ledgerAccount: 'clearing', amountMinor: amount.amountMinor }],
      },
    },
  })
  const state = opened([...held(), cleared!])
  t.equal(state.status, 'PROCESSING')
  t.equal(heldFunds(state), undefined)
  t.same(
    transferDecider.decide(cmd.deliver(at(5)), state).map((e) => e.type),
    ['TransferLegCompleted', 'TransferCompleted'],
  )
})

t.test('held money moves only by an operator: no refund, no reversal, no failure', async (t) => {
  transfer
    .given(held())
    .when(cmd.refund(at(4)))
    .thenThrows(t, 'transfer_funds_held')
  transfer
    .given(held())
    .when(cmd.reverse(at(4)))
    .thenThrows(t, 'transfer_funds_held')
  transfer
    .given(held())
    .when(cmd.fail(at(4)))
    .then(t, [], 'already in review')
})

t.test('a returned payout whose money cannot land is held (REVERSED → IN_REVIEW); a failure after completion is not', async (t) => {
  const payout = plan(SIDES.usdBalance, SIDES.ach)
  const completed = run([cmd.create(payout), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.advance(at(3))])
  transfer
    .given(completed)
    .when(cmd.fail(at(4)))
    .thenThrows(t, 'transfer_invalid_transition')
  const reversed = run([cmd.create(payout), cmd.fundBalance(at(1)), cmd.advance(at(2)), cmd.advance(at(3)), cmd.reverse(at(4))])
  const [suspended] = transferDecider.decide(cmd.suspend(at(5), 'RETURN', 'world'), opened(reversed))
  t.match(suspended, {
    type: 'TransferFundsSuspended',
    data: {
      stage: 'RETURN',
      amount: payout.sourceAmount,
      transaction: { postings: [{ ledgerAccount: 'world' }, { ledgerAccount: 'suspense' }] },
    },
  })
  t.equal(opened([...reversed, suspended!]).status, 'IN_REVIEW')
})

t.test('the balance credit leg completes by CompleteDelivery only; a transfer into a balance reverses once reclaimed', async (t) => {
  transfer
    .given(run([cmd.create(internalPlan()), cmd.fundBalance(at(1))]))
    .when(cmd.deliver(at(2)))
    .thenThrows(t, 'transfer_not_delivering')
  transfer
    .given(crediting())
    .when(cmd.advance(at(3)))
    .thenThrows(t, 'transfer_not_advanceable')
  const completed = [...crediting(), ...transferDecider.decide(cmd.deliver(at(3)), opened(crediting()))]
  t.equal(opened(completed).status, 'COMPLETED')
  transfer
    .given(completed)
    .when(cmd.deliver(at(4)))
    .then(t, [], 'delivered already')
  transfer
    .given(completed)
    .when(cmd.reverse(at(4), false))
    .thenThrows(t, 'transfer_not_reversible')
  t.equal(opened([...completed, ...transferDecider.decide(cmd.reverse(at(4), true), opened(completed))]).status, 'REVERSED')
  transfer
    .given(completed)
    .when(cmd.advance(at(4)))
    .thenThrows(t, 'transfer_not_advanceable')
})
