// The archive workflow (commands/workflows/): archiving a customer expires its open sessions by a
// command whose id derives from the CustomerArchived event. Replayed from position zero it issues
// no second command; a crash between the command and the checkpoint repeats nothing.
import t from 'tap'
import { expireSessionsOnArchive } from '../../commands/workflows/expireSessionsOnArchive.js'
import { workflowActor, workflowCommandId } from '../../commands/workflows/workflow.js'
import { workflowCheckpointName, workflowConsumer } from '../../commands/workflows/workflowConsumer.js'
import { applyBatch } from '../../events/consumers/applyBatch.js'
import { ensureCheckpoints, readCheckpoint, resetCheckpoint } from '../../events/consumers/checkpoints.js'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { startTestApp, type TestApp } from '../harness/testApp.js'
import { createIndividual } from '../customers/fixtures.js'

type Tap = Pick<typeof t, 'equal' | 'ok'>

const h = await startTestApp(t)
const workflows = h.runtime.runner.workflows
const checkpoint = workflowCheckpointName(expireSessionsOnArchive)

const streamOf = (id: string) => h.runtime.store.readStream(`customer-${id}`)

async function archivedWithSession(t: Tap, app: TestApp): Promise<{ customerId: string; sessionId: string }> {
  const c = await createIndividual(app)
  const session = await app.request({ method: 'POST', url: `/v1/customers/${c.id}/verification_sessions`, payload: {} })
  t.equal(session.statusCode, 201, 'session created')
  const archived = await app.request({ method: 'POST', url: `/v1/customers/${c.id}/archive` })
  t.equal(archived.statusCode, 200, 'archived')
  return { customerId: c.id, sessionId: session.json().id as string }
}

/** Every event of $all, read the way the runtime reads it. */
async function allEvents(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = []
  for (;;) {
    const page = await h.runtime.store.readAll({ from: events.at(-1)?.position, maxCount: 1_000 })
    if (page.length === 0) return events
    events.push(...page)
  }
}

/** Restarts the workflows from their stored checkpoints and waits until they have read all of $all. */
async function restartWorkflows(t: Tap): Promise<void> {
  await workflows.stop()
  await workflows.start()
  await workflows.whenCaughtUp()
  const head = (await allEvents()).at(-1)!.position
  t.ok(await workflows.waitFor(head, 10_000), 'the workflows reached the head')
}

t.test('archiving expires the session once, by a command with an id from the archive event', async (t) => {
  const { customerId, sessionId } = await archivedWithSession(t, h)
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/customers/${customerId}/verification_sessions/${sessionId}` })).json().status,
    'EXPIRED',
    'read-your-writes',
  )
  const stream = await streamOf(customerId)
  const archived = stream.find((e) => e.type === 'CustomerArchived')!
  const expired = stream.filter((e) => e.type === 'VerificationSessionExpired')
  t.equal(expired.length, 1)
  t.match(expired[0], {
    data: { sessionId, reason: 'CUSTOMER_ARCHIVED', at: archived.data.archivedAt },
    metadata: {
      commandId: workflowCommandId(expireSessionsOnArchive, archived, 'expire-sessions'),
      actor: workflowActor(expireSessionsOnArchive),
      causationId: archived.id,
      requestId: archived.metadata.requestId,
    },
  })
})

t.test('replayed from position zero, the workflow issues no second command', async (t) => {
  const { customerId } = await archivedWithSession(t, h)
  const before = await streamOf(customerId)
  const eventsBefore = (await allEvents()).length
  await workflows.stop()
  await resetCheckpoint(h.runtime.db, checkpoint)
  t.equal(await readCheckpoint(h.runtime.db, checkpoint), START)
  await restartWorkflows(t)
  t.same(
    (await streamOf(customerId)).map((e) => e.id),
    before.map((e) => e.id),
    'the customer stream is unchanged',
  )
  t.equal((await allEvents()).length, eventsBefore, 'no event appended anywhere')
  t.not(await readCheckpoint(h.runtime.db, checkpoint), START, 'the checkpoint moved again')
})

t.test('a crash between the command and the checkpoint repeats nothing', async (t) => {
  await workflows.stop()
  const { customerId } = await archivedWithSession(t, h)
  t.same((await streamOf(customerId)).map((e) => e.type).slice(-1), ['CustomerArchived'], 'the workflow is stopped: nothing expired yet')
  const stored = await readCheckpoint(h.runtime.db, checkpoint)
  const pending = (await allEvents()).filter((e) => e.position > stored)
  // The batch's transaction fails after the workflow's command ran: the checkpoint stays behind it.
  const crash: Consumer<ReadDatabase> = {
    name: 'test_crash_after_commands',
    handles: new Set(['CustomerArchived']),
    apply: async () => {
      throw new Error('crash before the checkpoint commits')
    },
  }
  await ensureCheckpoints(h.runtime.db, [crash.name])
  const consumers = [
    workflowConsumer<ReadDatabase>(
      expireSessionsOnArchive,
      h.runtime.commands,
      { protection: h.runtime.protection, environment: 'sandbox' },
      () => undefined,
    ),
    crash,
  ]
  await t.rejects(applyBatch(h.runtime.db, consumers, pending), /crash before the checkpoint commits/)
  const afterCrash = await streamOf(customerId)
  t.same(afterCrash.map((e) => e.type).slice(-2), ['CustomerArchived', 'VerificationSessionExpired'], 'the command ran')
  t.equal(await readCheckpoint(h.runtime.db, checkpoint), stored, 'the checkpoint did not move')

  await restartWorkflows(t)
  t.same(
    (await streamOf(customerId)).map((e) => e.id),
    afterCrash.map((e) => e.id),
    'the restarted workflow appended nothing more',
  )
  t.ok((await readCheckpoint(h.runtime.db, checkpoint)) > stored, 'and moved its checkpoint past the archive')
})
