// projections verify while the live projection moves on between the shadow's catch-up and the
// comparing snapshot: with retries it compares at a later snapshot, and when retries run out it
// replays the short tail inside the comparing transaction. Either way, the same rows and no
// difference.
import t from 'tap'
import type { EventStore } from '../../events/store/port.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
let created = 0
async function createEndpoint(): Promise<void> {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: `https://example.com/moving/${created}` } })
  if (res.statusCode !== 201) throw new Error(`create endpoint: ${res.statusCode} ${res.body}`)
  created += 1
}
for (let i = 0; i < 3; i++) await createEndpoint()

/** The real store, except that its first read lets the live projection move on (an endpoint created and projected) before answering. */
function movingStore(): EventStore {
  let moved = false
  return {
    ...h.runtime.store,
    async readAll(options) {
      if (!moved) {
        moved = true
        await createEndpoint()
      }
      return h.runtime.store.readAll(options)
    },
  }
}

for (const maxSnapshotTries of [1, 20]) {
  t.test(`the live projection moves during the verification (snapshot tries: ${maxSnapshotTries})`, async (t) => {
    const before = created
    const [result] = await verifyProjections(movingStore(), h.runtime.databaseUrl, [webhookEndpointsProjector], h.runtime, {
      maxSnapshotTries,
    })
    t.equal(created, before + 1, 'an endpoint was created mid-verification')
    t.equal(result!.differences, 0, 'no difference')
    t.match(
      result!.tables,
      [{ table: 'webhook_endpoints', liveRows: created, rebuiltRows: created, differences: 0 }],
      'compared at a checkpoint that includes it',
    )
  })
}
