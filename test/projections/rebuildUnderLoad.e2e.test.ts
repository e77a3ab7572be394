// Issue 25, point 3: a projection rebuilt while the API keeps writing to it, with projections inline.
// The new tables are filled from position zero while inline appends go on to the live ones; the swap
// holds the append lock alone for a moment (appends wait), applies the tail and swaps. Writers create
// and rename customers (a verification save) and create and delete endpoints all through two operator rebuilds (real CLI
// processes); afterwards every acknowledged write reads back as acknowledged, and a verification of
// both projections finds no difference.
import t from 'tap'
import { customersProjector } from '../../projections/customers.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { startTestApp } from '../harness/testApp.js'
import { runCli } from '../cli/fixtures/runCli.js'

const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
t.equal(h.runtime.projectionMode, 'inline', 'the database keeps its read models inline')

/** What the API acknowledged: each customer's last saved last name, and each endpoint's fate. */
const customers = new Map<string, string>()
const endpoints = new Map<string, 'kept' | 'deleted'>()
const failures: string[] = []
const latencies: number[] = []
let writing = true

async function timed<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work()
  } finally {
    latencies.push(performance.now() - started)
  }
}

async function customerWriter(lane: number): Promise<void> {
  for (let i = 0; writing; i++) {
    const created = await timed(() =>
      h.request({
        method: 'POST',
        url: '/v1/customers/individuals',
        payload: { firstName: 'Ada', lastName: `Load ${lane}-${i}`, email: `load${lane}.${i}@example.com` },
      }),
    )
    if (created.statusCode !== 201) {
      failures.push(`create customer ${created.statusCode} ${created.body.slice(0, 200)}`)
      continue
    }
    const id = created.json().id as string
    customers.set(id, `Load ${lane}-${i}`)
    if (i % 2 === 1) continue
    const renamed = await timed(() =>
      h.request({ method: 'POST', url: `/v1/customers/${id}/verification`, payload: { lastName: `Renamed ${lane}-${i}` } }),
    )
    if (renamed.statusCode === 200) customers.set(id, `Renamed ${lane}-${i}`)
    else failures.push(`rename customer ${renamed.statusCode} ${renamed.body.slice(0, 200)}`)
  }
}

async function endpointWriter(): Promise<void> {
  for (let i = 0; writing; i++) {
    const created = await timed(() =>
      h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: `https://example.com/load/${i}` } }),
    )
    if (created.statusCode !== 201) {
      failures.push(`create endpoint ${created.statusCode} ${created.body.slice(0, 200)}`)
      continue
    }
    const id = created.json().id as string
    endpoints.set(id, 'kept')
    // Every other one deleted again: deletes are writes too, and the organization stays under its endpoint limit.
    if (i % 2 === 0) continue
    const deleted = await timed(() => h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${id}` }))
    if (deleted.statusCode === 200) endpoints.set(id, 'deleted')
    else failures.push(`delete endpoint ${deleted.statusCode} ${deleted.body.slice(0, 200)}`)
  }
}

t.test('two rebuilds under a steady write load: every acknowledged write is there afterwards', async (t) => {
  const writers = Promise.all([customerWriter(0), customerWriter(1), endpointWriter()])
  const env = { DATABASE_URL: h.runtime.databaseUrl }
  const before = { customers: customers.size, endpoints: endpoints.size }
  const runs = []
  for (const projection of ['customers', 'webhook_endpoints']) runs.push(await runCli(['projections', 'rebuild', projection], env))
  const during = { customers: customers.size - before.customers, endpoints: endpoints.size - before.endpoints }
  writing = false
  await writers

  for (const run of runs) t.equal(run.code, 0, run.stderr)
  // A refused write's cause is in the app's error lines.
  if (failures.length > 0) for (const line of h.logs.lines()) if (line.includes('"level":50')) t.comment(line.slice(0, 1500))
  t.same(failures, [], 'every write during the rebuilds was acknowledged')
  t.ok(during.customers > 0 && during.endpoints > 0, `writes went on during the rebuilds (${JSON.stringify(during)})`)
  latencies.sort((a, b) => a - b)
  t.comment(
    `${latencies.length} writes; latency p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(1)} ms, ` +
      `max ${latencies.at(-1)!.toFixed(1)} ms (the swaps hold the appends)`,
  )

  let missing = 0
  for (const [id, lastName] of customers) {
    const res = await h.request({ method: 'GET', url: `/v1/customers/${id}` })
    if (res.statusCode !== 200 || res.json().customerName !== `Ada ${lastName}`) missing += 1
  }
  t.equal(missing, 0, `all ${customers.size} acknowledged customers read back with their last saved name`)
  let wrong = 0
  for (const [id, fate] of endpoints) {
    const res = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })
    if (res.statusCode !== (fate === 'kept' ? 200 : 404)) wrong += 1
  }
  t.equal(wrong, 0, `all ${endpoints.size} acknowledged endpoints read back as created or deleted`)

  const verified = await verifyProjections(
    h.runtime.store,
    h.runtime.databaseUrl,
    [customersProjector, webhookEndpointsProjector],
    h.runtime,
  )
  for (const result of verified) t.equal(result.differences, 0, `${result.projection}: the rebuilt tables equal a fresh replay`)
})
