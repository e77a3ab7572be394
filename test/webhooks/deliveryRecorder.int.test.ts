// The group-committed outcome recorder on real Postgres: outcomes that finish together share one
// transaction, and one that cannot be written (its message was purged meanwhile) neither fails
// its neighbours nor stays in the queue.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { claimDeliveries } from '../../webhooks/dispatcher/claimDeliveries.js'
import { createOutcomeRecorder } from '../../webhooks/dispatcher/recordOutcome.js'
import { createEndpoint, getMessage, sendTestEvent } from './deliveryHelpers.js'

const h = await startTestApp(t, { WEBHOOK_RETRY_SCHEDULE_MS: '0,10' }, { webhooks: { subscriber: true, dispatcher: false } })

t.test('a group with one unwritable outcome: the others are recorded, the lost one is dropped', async (t) => {
  const ep = await createEndpoint(h, { url: 'http://127.0.0.1:9/never-called' })
  const ids = [await sendTestEvent(h, ep.id), await sendTestEvent(h, ep.id), await sendTestEvent(h, ep.id)]
  const claimed = await claimDeliveries(h.runtime.db, { room: 10, perEndpoint: 10, leaseMs: 60_000 })
  t.same(claimed.map((c) => c.messageId).sort(), [...ids].sort(), 'all three claimed')
  t.ok(claimed.every((c) => c.leaseToken === claimed[0]!.leaseToken && c.endpoint.status === 'active'))
  t.same(await claimDeliveries(h.runtime.db, { room: 10, perEndpoint: 10, leaseMs: 60_000 }), [], 'a leased delivery is not claimed twice')

  const purged = claimed[1]!.messageId
  await h.runtime.db.deleteFrom('webhook_messages').where('id', '=', purged).execute()
  const recorder = createOutcomeRecorder(h.runtime.db)
  const attempt = { url: 'http://127.0.0.1:9/never-called', attemptedAt: new Date(), status: 200, body: 'ok', error: null, durationMs: 3 }
  await Promise.all(claimed.map((delivery) => recorder.record({ delivery, attempt, next: { status: 'SUCCEEDED' } })))
  for (const c of claimed.filter((x) => x.messageId !== purged)) {
    const message = await getMessage(h, c.messageId)
    t.same(
      message.deliveries.map((d) => [d.status, d.attemptCount]),
      [['SUCCEEDED', 1]],
      `${c.messageId} recorded`,
    )
    t.equal(message.attempts.length, 1)
  }
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/messages/${purged}` })).statusCode, 404)
})
