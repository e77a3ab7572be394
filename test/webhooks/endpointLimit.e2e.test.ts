// An organization may have at most WEBHOOK_ENDPOINTS_PER_ORGANIZATION endpoints (found by the soak:
// past the fan-out cap of 1 000 an endpoint silently missed messages). The count is kept by the
// projector with the rows, survives deletes, a rebuild and a verify, and is per organization.
import t from 'tap'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t, { WEBHOOK_ENDPOINTS_PER_ORGANIZATION: '3' })
const create = (apiKey?: string) =>
  h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'http://127.0.0.1:9/hook' },
    ...(apiKey ? { apiKey } : {}),
  })
const eventCount = async () => (await h.runtime.store.readAll({ maxCount: 10_000 })).length
const verifyDifferences = async () =>
  (await verifyProjections(h.runtime.store, h.runtime.databaseUrl, [webhookEndpointsProjector], h.runtime))[0]?.differences ?? -1
const countRow = async (organizationId: string) =>
  (
    await h.runtime.db
      .selectFrom('webhook_endpoint_counts')
      .select('endpoints')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
  )?.endpoints

t.test('the limit refuses the next creation with 422 and appends nothing; another organization is unaffected', async (t) => {
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await create()
    t.equal(res.statusCode, 201)
    ids.push(res.json().id)
  }
  t.equal(await countRow(h.org.organizationId), 3, 'the count follows the rows')
  const before = await eventCount()
  const refused = await create()
  t.equal(refused.statusCode, 422)
  t.match(refused.json(), { error: 'ValidationError', code: 'webhook_endpoint_limit_reached', statusCode: 422, requestId: /\w/ })
  t.equal(await eventCount(), before, 'nothing appended')

  const other = await h.newOrganization('Other')
  t.equal((await create(other.apiKey)).statusCode, 201, 'the limit is per organization')

  t.equal((await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${ids[0]}` })).statusCode, 200)
  t.equal(await countRow(h.org.organizationId), 2, 'a delete takes one off')
  t.equal((await create()).statusCode, 201, 'room again after a delete')
  t.equal((await create()).statusCode, 422, 'and full again')
})

t.test('a rebuild recomputes the counts from the events, and verify finds no difference', async (t) => {
  const before = await countRow(h.org.organizationId)
  await h.runtime.db
    .updateTable('webhook_endpoint_counts')
    .set({ endpoints: 99 })
    .where('organization_id', '=', h.org.organizationId)
    .execute()
  t.ok((await verifyDifferences()) > 0, 'verify sees the tampered count')
  await rebuildProjection(h.runtime.store, h.runtime.db, webhookEndpointsProjector, h.runtime)
  t.equal(await countRow(h.org.organizationId), before, 'rebuilt from the events')
  t.equal(await verifyDifferences(), 0)
})
