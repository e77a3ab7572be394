// Rebuild keeps the migrations' index names and refuses a second rebuild of the same projection.
import t from 'tap'
import { sql } from 'kysely'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { ProjectionBusyError } from '../../projections/runtime/projectionLock.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
for (let i = 0; i < 3; i++) {
  await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: `https://example.com/${i}` } })
}
const indexNames = async () =>
  (
    await sql<{
      indexname: string
    }>`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'webhook_endpoints' ORDER BY 1`.execute(h.runtime.db)
  ).rows.map((r) => r.indexname)

t.test('index names survive a rebuild', async (t) => {
  const before = await indexNames()
  t.ok(before.includes('webhook_endpoints_org_id'))
  const result = await rebuildProjection(h.runtime.store, h.runtime.db, webhookEndpointsProjector, h.runtime)
  t.ok(result.events > 0)
  t.same(await indexNames(), before)
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })).json().data.length, 3)
})

t.test('a second rebuild of the same projection at once is refused', async (t) => {
  const [a, b] = await Promise.allSettled([
    rebuildProjection(h.runtime.store, h.runtime.db, webhookEndpointsProjector, h.runtime),
    rebuildProjection(h.runtime.store, h.runtime.db, webhookEndpointsProjector, h.runtime),
  ])
  const outcomes = [a, b]
  t.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, 'one ran')
  const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
  t.ok(refused.reason instanceof ProjectionBusyError, 'the other was refused')
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })).json().data.length, 3, 'data intact')
})
