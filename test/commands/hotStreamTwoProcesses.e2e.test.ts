// A hot stream across processes: two real service processes on one database, 200 concurrent
// updates to one webhook endpoint spread over both. Each process queues its own commands on the
// stream, and the stream lock (commands/runtime/postgresStreamLock.ts) makes the two processes
// take turns: every update succeeds, none answers 409, and the stream holds every one of them.
import t from 'tap'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { streams } from '../../events/streams.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { type ServerProcess, startServer } from '../proofs/fixtures/serverProcess.js'

const UPDATES = 200
/** Longest the second process's read model may take to show the last update. */
const READ_MODEL_WAIT_MS = 10_000

const databaseUrl = await createTestDatabase(t)
const servers: ServerProcess[] = []
t.teardown(async () => {
  for (const server of servers) {
    if (!server.running()) continue
    server.kill('SIGTERM')
    await server.exited(20_000).catch(() => server.kill('SIGKILL'))
  }
})
// One after the other: the first creates the demo organization and prints its key; both serve it.
servers.push(await startServer({ DATABASE_URL: databaseUrl }))
servers.push(await startServer({ DATABASE_URL: databaseUrl }))
const apiKey = servers[0]!.demoKey!

async function call(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

t.test(`${UPDATES} concurrent updates to one endpoint over two processes: all land, none conflicts`, async (t) => {
  t.ok(apiKey, 'the first process printed the demo key')
  const created = await call(servers[0]!, 'POST', '/v1/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' })
  t.equal(created.status, 201)
  const id = String(created.body.id)
  const replies = await Promise.all(
    Array.from({ length: UPDATES }, (_, i) => call(servers[i % 2]!, 'PUT', `/v1/webhooks/endpoints/${id}`, { description: `update ${i}` })),
  )
  const statuses = replies.map((r) => r.status)
  t.equal(statuses.filter((s) => s === 409).length, 0, 'no concurrent_modification')
  t.equal(statuses.filter((s) => s === 200).length, UPDATES, 'every update answered 200')

  const store = await getPostgresEventStore({ connectionString: databaseUrl, onError: (error) => t.error(error) })
  t.teardown(() => store.close())
  const events = await store.readStream(streams.webhookEndpoint(id))
  t.equal(events.length, UPDATES + 1, 'created + every update in the stream')
  t.same(
    events.map((e) => Number(e.revision)),
    events.map((_, i) => i),
    'one revision after another',
  )
  const descriptionOf = (data: unknown) => (data as { description?: string }).description
  const descriptions = new Set(events.slice(1).map((e) => descriptionOf(e.data)))
  t.equal(descriptions.size, UPDATES, 'each update is its own event')
  const last = descriptionOf(events.at(-1)!.data)
  const answered = new Set(replies.map((r) => r.body.description))
  t.equal(answered.size, UPDATES, 'each update answered with its own state')

  for (const [index, server] of servers.entries()) {
    const until = Date.now() + READ_MODEL_WAIT_MS
    let seen: unknown
    do {
      seen = (await call(server, 'GET', `/v1/webhooks/endpoints/${id}`)).body.description
      if (seen === last) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    } while (Date.now() < until)
    t.equal(seen, last, `process ${index + 1}'s read model holds the last update decided`)
  }
})
