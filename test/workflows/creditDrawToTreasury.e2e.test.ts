// The draw workflow (commands/workflows/creditDrawToTreasury.ts): a draw credits its payout treasury
// from the credit line by a command whose id derives from the DrawTaken event, with the draw id as
// the credit's cause. A crash between the credit and the workflow's checkpoint, a replay from
// position zero, or the same step run twice, credit the treasury exactly once.
import t from 'tap'
import { creditDrawToTreasury } from '../../commands/workflows/creditDrawToTreasury.js'
import { workflowActor, workflowCommandId, workflowContext } from '../../commands/workflows/workflow.js'
import { workflowCheckpointName, workflowConsumer } from '../../commands/workflows/workflowConsumer.js'
import { applyBatch } from '../../events/consumers/applyBatch.js'
import { ensureCheckpoints, readCheckpoint, resetCheckpoint } from '../../events/consumers/checkpoints.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { startTestApp } from '../harness/testApp.js'
import { availableOn, readyFacility } from '../liquidity/fixtures.js'

type Tap = Pick<typeof t, 'equal' | 'ok'>

const h = await startTestApp(t)
const workflows = h.runtime.runner.workflows
const checkpoint = workflowCheckpointName(creditDrawToTreasury)
const treasury = await readyFacility(h)
const treasuryStream = () => h.runtime.store.readStream(`account-${treasury}`)
const credits = async () => (await treasuryStream()).filter((e) => e.type === 'FundsCredited')

async function allEvents(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = []
  for (;;) {
    const page = await h.runtime.store.readAll({ from: events.at(-1)?.position, maxCount: 1_000 })
    if (page.length === 0) return events
    events.push(...page)
  }
}

async function restartWorkflows(t: Tap): Promise<void> {
  await workflows.stop()
  await workflows.start()
  await workflows.whenCaughtUp()
  const head = (await allEvents()).at(-1)!.position
  t.ok(await workflows.waitFor(head, 10_000), 'the workflows reached the head')
}

async function draw(amount: string): Promise<RecordedEvent> {
  const reply = await h.request({ method: 'POST', url: '/v1/liquidity/facility/draws', payload: { amount } })
  if (reply.statusCode !== 201) throw new Error(`draw: ${reply.statusCode} ${reply.body}`)
  const id = reply.json().id as string
  return (await allEvents()).find((e) => e.type === 'DrawTaken' && e.data.drawId === id)!
}

t.test('a draw credits its treasury from the credit line, by a command with an id from the draw event', async (t) => {
  const taken = await draw('250000')
  t.equal(await availableOn(h, treasury), 250_000n, 'read-your-writes: credited before the draw answered')
  const [credit] = await credits()
  t.match(credit, {
    data: {
      cause: taken.data.drawId,
      transaction: {
        kind: 'DRAW',
        postings: [
          { ledgerAccount: 'credit_line', currency: 'USDC', amountMinor: '-250000' },
          { ledgerAccount: `available:${treasury}`, currency: 'USDC', amountMinor: '250000' },
        ],
      },
    },
    metadata: {
      commandId: workflowCommandId(creditDrawToTreasury, taken, 'credit-treasury'),
      actor: workflowActor(creditDrawToTreasury),
      causationId: taken.id,
    },
  })
})

t.test('the same step run twice credits once', async (t) => {
  const taken = await draw('1000')
  const before = await availableOn(h, treasury)
  const [command] = creditDrawToTreasury.commandsFor(taken)
  const context = workflowContext(creditDrawToTreasury, taken, command!)
  const again = await command!.run(h.runtime.commands, context, { protection: h.runtime.protection, environment: 'sandbox' })
  t.equal(again.position, undefined, 'nothing appended')
  t.equal(await availableOn(h, treasury), before)
})

t.test('replayed from position zero, the workflow credits nothing again', async (t) => {
  await draw('2000')
  const before = (await treasuryStream()).map((e) => e.id)
  await workflows.stop()
  await resetCheckpoint(h.runtime.db, checkpoint)
  t.equal(await readCheckpoint(h.runtime.db, checkpoint), START)
  await restartWorkflows(t)
  t.same(
    (await treasuryStream()).map((e) => e.id),
    before,
    'the treasury stream is unchanged',
  )
  t.equal(await availableOn(h, treasury), 253_000n)
})

t.test('a crash between the credit and the checkpoint credits once', async (t) => {
  await workflows.stop()
  const taken = await draw('4000')
  t.equal(await availableOn(h, treasury), 253_000n, 'the workflow is stopped: not credited yet')
  const stored = await readCheckpoint(h.runtime.db, checkpoint)
  const pending = (await allEvents()).filter((e) => h.runtime.store.comparePositions(e.position, stored) > 0)
  const crash: Consumer<ReadDatabase> = {
    name: 'test_crash_after_credit',
    handles: new Set(['DrawTaken']),
    apply: async () => {
      throw new Error('crash before the checkpoint commits')
    },
  }
  await ensureCheckpoints(h.runtime.db, [crash.name])
  const consumers = [
    workflowConsumer<ReadDatabase>(
      creditDrawToTreasury,
      h.runtime.commands,
      { protection: h.runtime.protection, environment: 'sandbox' },
      () => undefined,
    ),
    crash,
  ]
  await t.rejects(applyBatch(h.runtime.db, consumers, pending), /crash before the checkpoint commits/)
  t.equal(await availableOn(h, treasury), 257_000n, 'the credit ran')
  t.equal(await readCheckpoint(h.runtime.db, checkpoint), stored, 'the checkpoint did not move')
  const afterCrash = (await treasuryStream()).map((e) => e.id)
  await restartWorkflows(t)
  t.same(
    (await treasuryStream()).map((e) => e.id),
    afterCrash,
    'the restarted workflow appended nothing more',
  )
  t.equal(await availableOn(h, treasury), 257_000n, 'credited exactly once')
  t.equal((await credits()).filter((e) => e.data.cause === taken.data.drawId).length, 1)
})
