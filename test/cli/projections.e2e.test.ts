// `projections status` and `projections rebuild` as child processes against a real Postgres.
// Status reads checkpoints without projecting, so on a database whose read models are kept
// asynchronously (PROJECTIONS=async) it shows the lag events appended elsewhere leave; inline (the
// default), every projector is at the head. A rebuild swaps in identical rows while the API keeps
// answering from the same database.
import t from 'tap'
import { createCommandRuntime } from '../../commands/runtime/commandRuntime.js'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import type { Position } from '../../events/store/port.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { allProjectors } from '../../projections/allProjectors.js'
import { startTestApp } from '../harness/testApp.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { runCli, stdoutJson } from './fixtures/runCli.js'

type Lag = {
  name: string
  group: string
  position: string | null
  lagEvents: number
  lagSeconds: number
  lagIsLowerBound: boolean
  checkpointMovedAt: string | null
  stalled: boolean
}
type Status = {
  head: string | null
  headRecordedAt: string | null
  headStalenessSeconds: number | null
  complete: boolean
  projections: Lag[]
  webhookSubscriber: Lag
  consumers: { name: string; status: string }[]
  skips: unknown[]
}
type RebuildResult = { projection: string; events: number; position: string; durationMs: number }

const names = allProjectors.map((p) => p.name)

t.test('status, async: lag 0 after catch-up, then the lag of events appended by a process running no projector', async (t) => {
  const env = { DATABASE_URL: await createTestDatabase(t), PROJECTIONS: 'async' }
  const status = async () => {
    const run = await runCli(['projections', 'status', '--json'], env)
    t.equal(run.code, 0, run.stderr)
    return stdoutJson<Status>(run)
  }

  // orgs create migrates the fresh database, appends two events and catches every projector up.
  t.equal((await runCli(['orgs', 'create', '--name', 'Status check'], env)).code, 0)
  const caughtUp = await status()
  t.match(caughtUp.head, /^\d{20}\/\d{20}$/)
  t.equal(caughtUp.complete, true)
  t.same(
    caughtUp.projections.map((p) => [p.name, p.position, p.lagEvents, p.lagSeconds, p.stalled]),
    names.map((name) => [name, caughtUp.head, 0, 0, false]),
    'every projector at the head',
  )
  t.ok(caughtUp.headStalenessSeconds !== null && caughtUp.headStalenessSeconds >= 0, 'the head has a staleness')
  // The CLI runs no webhook subscriber: it has no checkpoint, and every event is still ahead of it (it reads them all).
  t.match(caughtUp.webhookSubscriber, { name: 'webhook_messages', position: null, lagEvents: 2, lagIsLowerBound: false, stalled: true })
  t.ok(caughtUp.webhookSubscriber.lagSeconds >= 0, 'lag in seconds: the age of its oldest event')
  t.same(caughtUp.consumers, [
    { name: 'projections', status: 'ok' },
    { name: 'webhook_messages', status: 'ok' },
    { name: 'workflows', status: 'ok' },
    { name: 'audit_merkle_tree', status: 'ok' },
  ])
  t.same(caughtUp.skips, [])

  // Another process appends through the event store alone: nothing projects these events.
  const store = await getPostgresEventStore({ connectionString: env.DATABASE_URL })
  const behind = await createOrganization(createCommandRuntime({ store }), {
    name: 'Appended elsewhere',
    environment: 'sandbox',
    actor: 'test',
  })
  // $all shows an event once no older writer is running anywhere in the cluster (other test files
  // share it); wait for that here so the status below is deterministic.
  const deadline = Date.now() + 10_000
  while ((await store.readAll({ from: caughtUp.head as Position })).length < 2 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50))
  await store.close()
  const lagging = await status()
  t.equal(lagging.head, behind.position, 'head is the last appended event')
  t.same(
    lagging.projections.map((p) => [p.name, p.position, p.lagEvents]),
    names.map((name) => [name, caughtUp.head, name === 'organizations' ? 2 : 0]),
    'checkpoints unchanged (status projects nothing); only the organizations projector handles OrganizationCreated and ApiKeyCreated',
  )
  const organizations = lagging.projections.find((p) => p.name === 'organizations')!
  t.ok(organizations.lagSeconds > 0 && organizations.lagSeconds < 120, `lag in seconds: ${organizations.lagSeconds}`)
  t.equal(organizations.stalled, false, 'its checkpoint moved within the minute')
  t.equal(lagging.webhookSubscriber.lagEvents, 4, 'the subscriber has all four events still to read')

  // A checkpoint that has not moved for the bound while behind: stalled, in the person's lines too.
  const db = new pg.Client({ connectionString: env.DATABASE_URL })
  await db.connect()
  await db.query(`UPDATE consumer_checkpoints SET updated_at = now() - interval '2 minutes' WHERE name = 'organizations'`)
  await db.end()
  const stalled = await status()
  t.match(
    stalled.projections.find((p) => p.name === 'organizations'),
    { lagEvents: 2, stalled: true },
  )
  t.ok(
    stalled.projections.filter((p) => p.name !== 'organizations').every((p) => !p.stalled),
    'caught-up ones are never stalled',
  )
  const text = await runCli(['projections', 'status'], env)
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /^head \d{20}\/\d{20}, recorded /, 'plain lines for a person')
  t.match(text.stdout, /\n  organizations +projections +2 +[\d.]+ s +STALLED /)
})

t.test('status, async: a caught-up system shows lag 0, whatever events no consumer handles came last', async (t) => {
  const h = await startTestApp(t, { PROJECTIONS: 'async' }, { webhooks: { dispatcher: false } })
  const endpoint = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/hook' } })
  t.equal(endpoint.statusCode, 201)
  // A test event: the webhook subscriber handles it (a message), no projector does.
  t.equal((await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${endpoint.json().id}/test` })).statusCode, 202)
  // Last, an event nobody handles: the projectors' stored checkpoints stay behind it.
  const noise = await h.runtime.store.appendToStream('noise-1', [
    { id: randomUUID(), type: 'NoiseRecorded', data: { n: 1 }, metadata: { organizationId: h.org.organizationId } },
  ])
  t.ok(await h.runtime.runner.waitFor(noise.position, 10_000), 'runner passed the noise')
  t.ok(await h.runtime.webhooks.waitForMessages(noise.position, 10_000), 'subscriber passed the noise')

  const run = await runCli(['projections', 'status', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(run.code, 0, run.stderr)
  const status = stdoutJson<Status>(run)
  t.equal(status.head, noise.position)
  t.same(
    status.projections.map((p) => [p.name, p.lagEvents]),
    names.map((name) => [name, 0]),
    'every projector: lag 0',
  )
  t.ok(
    status.projections.some((p) => p.position !== status.head),
    'although some checkpoints are behind the head (unhandled events)',
  )
  t.equal(status.webhookSubscriber.lagEvents, 0, 'webhook subscriber: lag 0')
})

t.test('status, inline: every projector at the head with lag 0, and the mode shown', async (t) => {
  const env = { DATABASE_URL: await createTestDatabase(t) }
  t.equal((await runCli(['orgs', 'create', '--name', 'Inline status'], env)).code, 0)
  const run = await runCli(['projections', 'status', '--json'], env)
  t.equal(run.code, 0, run.stderr)
  const status = stdoutJson<Status & { projectionMode: string }>(run)
  t.equal(status.projectionMode, 'inline')
  t.match(status.head, /^\d{20}\/\d{20}$/)
  t.same(
    status.projections.map((p) => [p.name, p.position, p.lagEvents, p.stalled]),
    names.map((name) => [name, status.head, 0, false]),
    'every projector at the head',
  )
})

t.test('rebuild webhook_endpoints: identical rows, and the API answers in full throughout', async (t) => {
  const h = await startTestApp(t)
  const env = { DATABASE_URL: h.runtime.databaseUrl }
  const ENDPOINTS = 40
  const ids: string[] = []
  for (let i = 0; i < ENDPOINTS; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        h.request({
          method: 'POST',
          url: '/v1/webhooks/endpoints',
          payload: { url: `https://example.com/${i + j}`, filterTypes: ['customer.created'], metadata: { n: i + j } },
        }),
      ),
    )
    for (const res of batch) ids.push(res.json().id as string)
  }
  // Every event type the projector handles, so the replay exercises each of them.
  for (const id of ids.slice(0, 5))
    t.equal(
      (await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: { description: 'updated', disabled: true } }))
        .statusCode,
      200,
    )
  for (const id of ids.slice(5, 10))
    t.equal((await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/secret/rotate` })).statusCode, 200)
  for (const id of ids.slice(10, 15)) t.equal((await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${id}` })).statusCode, 200)
  const live = ENDPOINTS - 5

  const snapshot = () => h.runtime.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute()
  const before = await snapshot()
  t.equal(before.length, live)
  const eventCount = (await h.runtime.store.readAll({ maxCount: 10_000 })).length

  // Poll the API from the same database for as long as the CLI process runs.
  let running = true
  const statuses: number[] = []
  const sizes: number[] = []
  const poller = (async () => {
    while (running) {
      const res = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=1000' })
      statuses.push(res.statusCode)
      if (res.statusCode === 200) sizes.push((res.json().data as unknown[]).length)
    }
  })()
  const run = await runCli(['projections', 'rebuild', 'webhook_endpoints', '--json'], env)
  running = false
  await poller

  t.equal(run.code, 0, run.stderr)
  const results = stdoutJson<RebuildResult[]>(run)
  t.equal(results.length, 1)
  t.match(results[0], { projection: 'webhook_endpoints', events: eventCount, position: /^\d{20}\/\d{20}$/, durationMs: Number })
  t.ok(statuses.length >= 5, `the API was polled ${statuses.length} times during the rebuild`)
  t.ok(
    statuses.every((s) => s === 200),
    'every request answered 200',
  )
  t.ok(
    sizes.every((n) => n === live),
    'never an empty or partial list',
  )
  t.same(await snapshot(), before, 'rows identical after the rebuild')

  // The live projector resumes from the rebuilt checkpoint: a new endpoint is readable at once.
  const created = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 'https://example.com/after' } })
  t.equal(created.statusCode, 201)
  t.same((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${created.json().id}` })).json(), created.json())
})

t.test('rebuild with no name rebuilds every projection; keys still authenticate', async (t) => {
  const h = await startTestApp(t)
  // A key never presented before, so the auth cache cannot hide a broken api_keys table.
  const fresh = await h.newOrganization('Rebuilt')
  const run = await runCli(['projections', 'rebuild', '--json'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(run.code, 0, run.stderr)
  t.same(
    stdoutJson<RebuildResult[]>(run).map((r) => r.projection),
    names,
  )
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints', apiKey: fresh.apiKey })).statusCode, 200)
})
