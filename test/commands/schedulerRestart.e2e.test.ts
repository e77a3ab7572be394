// The scheduler across a restart of the real server process: a verification session's expiry that
// falls due while the service is down fires exactly once after it starts again, and so does the
// expiry of a session whose creation was appended by a process that died before any consumer ran
// (its timer is scheduled from the event on restart, in the consumer's checkpoint transaction).
import pg from 'pg'
import t from 'tap'
import { expiryTimerId } from '../../commands/customers/verificationExpiry.js'
import { createCommandRuntime } from '../../commands/runtime/commandRuntime.js'
import { customerDecider } from '../../domain/customer/decider.js'
import { newId } from '../../domain/shared/ids.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { streams } from '../../events/streams.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { type ServerProcess, startServer } from '../proofs/fixtures/serverProcess.js'

const TTL_MS = 2_000
const FIRE_TIMEOUT_MS = 20_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const databaseUrl = await createTestDatabase(t)
const env = { DATABASE_URL: databaseUrl, VERIFICATION_SESSION_TTL_MS: String(TTL_MS) }
let server: ServerProcess = await startServer(env)
t.teardown(() => {
  if (server.running()) server.kill('SIGKILL')
})
const apiKey = server.demoKey
if (!apiKey) throw new Error(`the first start printed no demo key: ${server.stdout()}`)
const store = await getPostgresEventStore({ connectionString: databaseUrl })
t.teardown(() => store.close())
const commands = createCommandRuntime({ store })
const client = new pg.Client({ connectionString: databaseUrl })
await client.connect()
t.teardown(() => client.end())

async function post(url: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${server.baseUrl}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: string }
}
const expiries = async (customerId: string) =>
  (await store.readStream(streams.customer(customerId))).filter((e) => e.type === 'VerificationSessionExpired')
const timerIds = async () => (await client.query<{ id: string }>('SELECT id FROM scheduled_commands ORDER BY id')).rows.map((r) => r.id)

t.test('timers due while the service is down fire exactly once after restart', async (t) => {
  // Through the service: the session's timer is on the table when the 201 comes back.
  const first = await post('/v1/customers/individuals', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })
  const firstSession = await post(`/v1/customers/${first.id}/verification_sessions`, {})
  const second = await post('/v1/customers/individuals', { firstName: 'Grace', lastName: 'Hopper' })
  t.same(await timerIds(), [expiryTimerId(firstSession.id)], "the first session's timer is stored")

  server.kill('SIGKILL')
  await server.exited(10_000)

  // A process appended the second session's creation and died before any consumer saw it.
  const { rows } = await client.query<{ organization_id: string }>('SELECT organization_id FROM customers WHERE id = $1', [second.id])
  const organizationId = rows[0]!.organization_id
  const now = new Date()
  const secondSessionId = newId('vsess', now.getTime())
  await commands.handle(
    customerDecider,
    streams.customer(second.id),
    {
      type: 'CreateVerificationSession',
      organizationId,
      customerId: second.id,
      now: now.toISOString(),
      associatedEntityId: null,
      email: undefined,
      sendInvite: false,
      session: {
        sessionId: secondSessionId,
        verificationUrl: `https://verify.example.com/sessions/${secondSessionId}?token=t`,
        expiresAt: new Date(now.getTime() + 1_000).toISOString(),
      },
    },
    { organizationId, requestId: 'req_dead_process', actor: 'test' },
  )

  await sleep(TTL_MS + 500)
  t.equal((await expiries(first.id)).length, 0, 'nothing fired while the service was down')
  t.equal((await expiries(second.id)).length, 0)
  t.same(await timerIds(), [expiryTimerId(firstSession.id)], 'the second timer is not stored yet: no consumer ran')

  server = await startServer(env)
  const deadline = Date.now() + FIRE_TIMEOUT_MS
  while (Date.now() < deadline && ((await expiries(first.id)).length === 0 || (await expiries(second.id)).length === 0)) await sleep(200)
  // Two more poll intervals: a second firing would show by now.
  await sleep(2_500)
  for (const [customerId, sessionId] of [
    [first.id, firstSession.id],
    [second.id, secondSessionId],
  ] as const) {
    const expired = await expiries(customerId)
    t.equal(expired.length, 1, `${sessionId} expired exactly once`)
    const metadata = { commandId: expiryTimerId(sessionId), actor: 'system:scheduler' }
    t.match(expired[0], { data: { sessionId, reason: 'EXPIRED' }, metadata })
  }
  t.same(await timerIds(), [], 'both timers done and gone')

  server.kill('SIGTERM')
  t.equal(await server.exited(15_000), 0, 'an orderly stop, background jobs included')
})
