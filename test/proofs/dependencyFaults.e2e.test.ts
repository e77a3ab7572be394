// Dependency faults (issue 9), against the real server process:
// - its embedded PostgreSQL is restarted (pg_ctl restart, fast then immediate) under the mixed
//   workload: the server recovers by itself, loses no acknowledged write, its projections and
//   webhook subscriber resume, and the event store's LISTEN connection comes back;
// - webhook receivers that hang, or answer 500 forever, do not slow the API past a bound.
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { type Receiver, startReceiver } from '../webhooks/deliveryReceiver.js'
import { databaseUrlOf, postmaster, restartCluster, stopStrayCluster } from './fixtures/embeddedCluster.js'
import { type ServerProcess, startServer } from './fixtures/serverProcess.js'
import { type Api, acknowledgedCount, call, emptyLedger, missingWrites, seededRandom, startWorkload } from './fixtures/workload.js'

const FAULTS = {
  /** Workload before, between and after the restarts. */
  loadMs: 1_000,
  /** Longest the service may take to accept writes again after the database is back. */
  recoveryMs: 15_000,
  deliveryWaitMs: 15_000,
  /** The bound on any API request while webhook dispatch is stuck. */
  apiLatencyBoundMs: 2_000,
  latencyProbeMs: 3_000,
  /** pg_ctl's wait for the shutdown and the start (its default 60 s): the service may win the race to start it (below). */
  restartWaitSeconds: 15,
} as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// A hang guard, not a speed target: a restart that pg_ctl reports as failed below waits out its wait first.
t.setTimeout(400_000)

/**
 * pg_ctl restart, under the service's own watch: the service starts a cluster it owns again as soon
 * as it sees it down, and when it wins that race (a loaded machine delays pg_ctl) pg_ctl waits for a
 * shutdown that already happened and reports it failed. A running postmaster other than the one
 * before is the restart all the same.
 */
async function restartUnderWatch(dataDir: string, mode: 'fast' | 'immediate'): Promise<void> {
  const before = postmaster(dataDir)?.pid
  try {
    await restartCluster(dataDir, mode, FAULTS.restartWaitSeconds)
  } catch (error) {
    const now = postmaster(dataDir)
    if (!now || now.pid === before) throw error
  }
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined || Date.now() > deadline) return value
    await sleep(100)
  }
}

t.test('the embedded PostgreSQL restarted under load: the service recovers by itself and loses nothing acknowledged', async (t) => {
  const dataDir = path.join(os.tmpdir(), `payments-faults-${randomBytes(6).toString('hex')}`)
  const receiver: Receiver = await startReceiver()
  // eslint-disable-next-line prefer-const -- read by the teardown registered before the server starts
  let server: ServerProcess | undefined
  t.teardown(async () => {
    if (server?.running()) server.kill('SIGKILL')
    await receiver.close()
    await stopStrayCluster(dataDir)
    await rm(dataDir, { recursive: true, force: true })
  })
  server = await startServer({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,100,200,400,800',
    WEBHOOK_REQUEST_TIMEOUT_MS: '1000',
  })
  const api: Api = { baseUrl: server.baseUrl, apiKey: server.demoKey! }
  t.ok(server.demoKey, 'demo key printed')
  const databaseUrl = databaseUrlOf(dataDir)
  const ledger = emptyLedger()
  const workload = startWorkload(api, ledger, receiver, seededRandom(20_260_902))

  await sleep(FAULTS.loadMs)
  const beforeFast = postmaster(dataDir)!
  await restartUnderWatch(dataDir, 'fast')
  await sleep(FAULTS.loadMs)
  await restartUnderWatch(dataDir, 'immediate')
  const afterRestarts = postmaster(dataDir)!
  t.not(afterRestarts.pid, beforeFast.pid, 'PostgreSQL really restarted')
  t.equal(afterRestarts.port, beforeFast.port, 'on the same port')
  const acknowledgedBeforeRecovery = acknowledgedCount(ledger)
  await sleep(FAULTS.loadMs)

  // Recovered: acknowledged writes resume (bounded), with no restart of the server.
  const resumed = await eventually(
    async () => (acknowledgedCount(ledger) > acknowledgedBeforeRecovery + 5 ? true : undefined),
    FAULTS.recoveryMs,
  )
  await workload.stop()
  t.ok(resumed, `writes acknowledged again after the restarts (${acknowledgedCount(ledger) - acknowledgedBeforeRecovery} since)`)
  t.ok(server.running(), 'the server process never stopped')
  if (!server.running()) t.comment(`server output: ${server.stdout().slice(-3_000)} ${server.stderr().slice(-3_000)}`)
  t.comment(`acknowledged ${JSON.stringify(ledger.counts)}; refused or failed during the restarts: ${ledger.failures.length}`)
  t.ok(
    ledger.failures.every((status) => status === 0 || status >= 500),
    'what failed, failed as unavailable (never a 4xx)',
  )

  // A write acknowledged while a projector backed off (its read-your-writes waiters are released then, so
  // the API does not stall) is durable at once and in the read model once the projector's retry comes.
  let missing = await missingWrites(api, ledger)
  const deadline = Date.now() + FAULTS.recoveryMs
  while (missing.length > 0 && Date.now() < deadline) {
    await sleep(200)
    missing = await missingWrites(api, ledger)
  }
  t.same(missing, [], 'every acknowledged write is there')
  const verify = await runCli(['projections', 'verify'], { DATA_DIR: dataDir })
  t.equal(verify.code, 0, `projections verify: ${verify.stderr}`)
  if (verify.code === 0) t.equal(stdoutJson<{ consistent: boolean }>(verify).consistent, true, 'projections equal a rebuild')
  // An outage is retried, never parked: parking then would have parked every stream the consumers saw.
  const parked = await query<{ n: string }>(databaseUrl, 'SELECT count(*) AS n FROM consumer_parked')
  t.equal(Number(parked[0]?.n), 0, 'no stream parked during the restarts')

  // The webhook subscriber and dispatcher resumed: every delivery reached the receiver.
  const undelivered = async () => {
    const rows = await query<{ message_id: string; url: string }>(
      databaseUrl,
      'SELECT d.message_id, e.url FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id',
    )
    const seen = new Set(receiver.requests.map((r) => `${r.headers['webhook-id']} ${r.path}`))
    const left = rows.filter((r) => !seen.has(`${r.message_id} ${new URL(r.url).pathname}`))
    return left.length === 0 ? undefined : left
  }
  t.same(
    await eventually(async () => ((await undelivered()) === undefined ? [] : undefined), FAULTS.deliveryWaitMs),
    [],
    'every delivery reached the receiver',
  )

  // The event store's LISTEN connection came back (commitSignal.ts reconnects it).
  const listening = await eventually(async () => {
    const rows = await query<{ n: string }>(
      databaseUrl,
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'payments' AND query ILIKE 'LISTEN %'`,
    )
    return Number(rows[0]!.n) > 0 ? true : undefined
  }, 5_000)
  t.ok(listening, 'a session LISTENs for appends again')

  // An append by another process (the CLI) reaches the server's projections: its key authenticates.
  const created = await runCli(['orgs', 'create', '--name', 'After the restarts'], { DATA_DIR: dataDir })
  t.equal(created.code, 0, created.stderr)
  const key = stdoutJson<{ apiKey: string }>(created).apiKey
  const accepted = await eventually(
    async () => ((await call({ baseUrl: api.baseUrl, apiKey: key }, 'GET', '/v1/customers')).status === 200 ? true : undefined),
    5_000,
  )
  t.ok(accepted, 'a key created by the CLI after the restarts authenticates on the server')

  server.kill('SIGTERM')
  t.equal(await server.exited(20_000), 0, 'the server stops cleanly')
  t.notOk(postmaster(dataDir), 'and stops the cluster it owns')
})

t.test('webhook receivers that hang or answer 500 forever: every API request stays under the bound', async (t) => {
  const receiver: Receiver = await startReceiver()
  receiver.on('/hang', () => ({ status: 200, hang: true }))
  receiver.on('/fail', () => ({ status: 500, body: 'no' }))
  const databaseUrl = await createTestDatabase(t)
  // The default 15 s attempt timeout: hung attempts stay in flight for the whole probe.
  const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', WEBHOOK_RETRY_SCHEDULE_MS: '0,20,20,20,20,20,20,20' })
  t.teardown(async () => {
    if (server.running()) server.kill('SIGKILL')
    await receiver.close()
  })
  const api: Api = { baseUrl: server.baseUrl, apiKey: server.demoKey! }
  const endpoint = async (p: string) => {
    const res = await call(api, 'POST', '/v1/webhooks/endpoints', { url: receiver.url(p) })
    t.equal(res.status, 201)
    return String(res.body.id)
  }
  const [hang, fail, healthy] = [await endpoint('/hang'), await endpoint('/fail'), await endpoint('/ok')]
  const queued: number[] = []
  for (let i = 0; i < 20; i++) {
    queued.push(
      (await call(api, 'POST', `/v1/webhooks/endpoints/${hang}/test`)).status,
      (await call(api, 'POST', `/v1/webhooks/endpoints/${fail}/test`)).status,
    )
  }
  t.same(new Set(queued), new Set([202]), '40 test events queued for the stuck receivers')
  await receiver.waitFor(
    () => receiver.forPath('/hang').length >= 8 && receiver.forPath('/fail').length >= 40,
    10_000,
    'dispatch stuck on both receivers',
  )

  // Probe the API while dispatch is stuck: writes (which also fan out) and reads, two at a time.
  const latencies: { path: string; ms: number; status: number }[] = []
  const until = Date.now() + FAULTS.latencyProbeMs
  await Promise.all(
    [0, 1].map(async (worker) => {
      for (let i = 0; Date.now() < until; i++) {
        const started = Date.now()
        const res =
          i % 2 === 0
            ? await call(api, 'POST', '/v1/customers/individuals', { firstName: 'Probe', lastName: String(worker) })
            : await call(api, 'GET', '/v1/customers?limit=20')
        latencies.push({
          path: i % 2 === 0 ? 'POST /v1/customers/individuals' : 'GET /v1/customers',
          ms: Date.now() - started,
          status: res.status,
        })
      }
    }),
  )
  const slowest = latencies.reduce((max, l) => (l.ms > max.ms ? l : max), latencies[0]!)
  t.ok(latencies.length >= 10, `${latencies.length} API requests while dispatch was stuck`)
  t.same(
    latencies.filter((l) => l.status < 200 || l.status >= 300),
    [],
    'every one succeeded',
  )
  t.ok(slowest.ms < FAULTS.apiLatencyBoundMs, `the slowest took ${slowest.ms} ms (${slowest.path}); bound ${FAULTS.apiLatencyBoundMs} ms`)
  t.ok(
    receiver.maxConcurrent('/hang') >= 1 && receiver.forPath('/hang').length < 40,
    `hung attempts still in flight (${receiver.forPath('/hang').length} started)`,
  )

  // A healthy endpoint is not starved by the stuck ones.
  const started = Date.now()
  const message = await call(api, 'POST', `/v1/webhooks/endpoints/${healthy}/test`)
  t.equal(message.status, 202)
  await receiver.waitFor(
    (requests) => requests.some((r) => r.path === '/ok' && r.headers['webhook-id'] === message.body.messageId),
    FAULTS.apiLatencyBoundMs,
    "the healthy endpoint's delivery",
  )
  t.ok(Date.now() - started < FAULTS.apiLatencyBoundMs, `delivered to the healthy endpoint in ${Date.now() - started} ms`)

  // Stopping with attempts hung: in-flight attempts are cut after their grace, within the bound.
  const asked = Date.now()
  server.kill('SIGTERM')
  t.equal(await server.exited(20_000), 0, `stops cleanly in ${Date.now() - asked} ms with attempts hung`)
})
