// Projection batches commit asynchronously: a database that crashes loses the last ones, rows and
// checkpoint together. The running server must notice (a stored checkpoint behind one it saw
// commit) and replay from the stored checkpoint, or the lost rows would stay lost until a restart
// (found by the dependency-fault proof: acknowledged creations reading back 404).
import t from 'tap'
import { START } from '../../events/store/port.js'
import { startTestApp } from '../harness/testApp.js'

// Asynchronous projections only: inline, rows commit with their events in the append's (synchronous) commit.
const h = await startTestApp(t, { PROJECTIONS: 'async' })

t.test('a lost commit is noticed at the next batch and its rows come back', async (t) => {
  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'http://127.0.0.1:9/lost' } })
  t.equal(created.statusCode, 201)
  const id = created.json().id as string
  const [event] = await h.runtime.store.readStream(`webhook_endpoint-${id}`)
  const all = await h.runtime.store.readAll({ maxCount: 10_000 })
  const before = all[all.findIndex((e) => e.id === event!.id) - 1]?.position ?? START

  // What a crash after the asynchronous commit leaves: neither the row nor the checkpoint move.
  await h.runtime.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute()
    await trx
      .updateTable('webhook_endpoint_counts')
      .set((eb) => ({ endpoints: eb('endpoints', '-', 1) }))
      .where('organization_id', '=', h.org.organizationId)
      .execute()
    await trx.updateTable('consumer_checkpoints').set({ position: before }).where('name', '=', 'webhook_endpoints').execute()
  })
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).statusCode, 404, 'the row is gone, as after the crash')

  // The next write's batch finds the checkpoint behind, replays from it, and then applies itself.
  const next = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'http://127.0.0.1:9/next' } })
  t.equal(next.statusCode, 201)
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).statusCode, 200, 'the lost row is back')
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${next.json().id as string}` })).statusCode,
    200,
    'and the new one is there',
  )
  const count = await h.runtime.db
    .selectFrom('webhook_endpoint_counts')
    .select('endpoints')
    .where('organization_id', '=', h.org.organizationId)
    .executeTakeFirstOrThrow()
  t.equal(count.endpoints, 2, 'the count replayed with the rows')
})
