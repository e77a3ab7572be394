// Defect 7 (issue 9): the embedded PostgreSQL outlived a killed server. A server restarted after a
// `kill -9` takes the orphaned cluster over, so its SIGTERM stops it; and a SIGTERM stops the
// service within a bound even while a projector fails on every retry. A server also takes over a
// cluster a CLI started, so the CLI leaving does not stop the server's database.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { encodePosition } from '../../events/store/positions.js'
import t from 'tap'
import { REPO_ROOT, childEnv, runCli } from '../cli/fixtures/runCli.js'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { clusterProcesses, describeProcess, databaseUrlOf, postmaster, stopStrayCluster } from './fixtures/embeddedCluster.js'
import { type ServerProcess, startServer } from './fixtures/serverProcess.js'

/** server/main.ts's SHUTDOWN_TIMEOUT_MS plus process start-up slack. */
const STOP_BOUND_MS = 15_000 + 5_000

const dataDir = path.join(os.tmpdir(), `payments-ownership-${randomBytes(6).toString('hex')}`)
// Asynchronous projections: the second proof needs a projector that keeps failing beside a running server
// (inline, a projector that throws fails the append instead, and an event written by SQL is never projected).
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error', PROJECTIONS: 'async' }
const servers: ServerProcess[] = []
t.teardown(async () => {
  for (const s of servers) if (s.running()) s.kill('SIGKILL')
  await stopStrayCluster(dataDir)
  await rm(dataDir, { recursive: true, force: true })
})

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
}

/** Appends, behind the event store's back, an OrganizationCreated whose name holds NUL: the organizations projector cannot store it. */
async function appendPoison(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ data: Record<string, unknown>; metadata: Record<string, unknown> }>(
      `SELECT data, metadata FROM es_events WHERE event_type = 'OrganizationCreated' ORDER BY global_position LIMIT 1`,
    )
    const model = rows[0]!
    const organizationId = `org_${randomBytes(8).toString('hex')}`
    const data = { ...model.data, organizationId, name: 'a\u0000b' }
    const inserted = await client.query<{ transaction_id: string; global_position: string }>(
      `INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata)
       VALUES ($1, $2, 0, 'OrganizationCreated', $3::json, $4::json) RETURNING transaction_id::text, global_position`,
      [randomUUID(), `organization-${organizationId}`, JSON.stringify(data), JSON.stringify(model.metadata)],
    )
    return encodePosition(inserted.rows[0]!.transaction_id, inserted.rows[0]!.global_position)
  } finally {
    await client.end()
  }
}

/** Whether the organizations projector parked the poison (a dead letter: its stream waits, every other goes on). */
async function poisonParked(databaseUrl: string, position: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM consumer_parked WHERE consumer = 'organizations' AND event_position = $1`,
      [position],
    )
    return rows[0]?.n === '1'
  } finally {
    await client.end()
  }
}

t.test("a server takes over the cluster a CLI started: the CLI leaving does not stop it, the server's SIGTERM does", async (t) => {
  const user = spawn(process.execPath, nodeArgsFor('test/proofs/fixtures/clusterUser.ts'), {
    cwd: REPO_ROOT,
    env: childEnv({ DATA_DIR: dataDir }),
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  t.teardown(() => void user.kill('SIGKILL'))
  const lines = createInterface({ input: user.stdout })[Symbol.asyncIterator]()
  const next = async () => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>
  t.same(await next(), { startedHere: true, owned: true }, 'the CLI-like process started the cluster and owns it')
  const cluster = postmaster(dataDir)

  const server = await startServer(env)
  servers.push(server)
  t.same(postmaster(dataDir), cluster, 'the server uses the running cluster')
  user.stdin.write('stop\n')
  t.same(await next(), { stopped: true, ownedBeforeStop: true }, 'the CLI-like process finished')
  await once(user, 'exit')
  t.same(postmaster(dataDir), cluster, 'the cluster still runs: the server had taken it over')
  t.equal((await fetch(`${server.baseUrl}/health`)).status, 200, 'and the server still reaches its database')

  server.kill('SIGTERM')
  t.equal(await server.exited(STOP_BOUND_MS), 0)
  t.notOk(postmaster(dataDir), 'the server stopped the cluster it took over')
})

t.test('kill -9, restart, SIGTERM: the restarted server owns the cluster and stops it, even with a failing projector', async (t) => {
  const first = await startServer(env)
  servers.push(first)
  const cluster = postmaster(dataDir)
  t.ok(cluster, 'the server started the embedded cluster')

  first.kill('SIGKILL')
  await first.exited(5_000)
  t.same(postmaster(dataDir), cluster, 'a killed server leaves its cluster running')

  // A CLI beside the orphaned cluster uses it but never takes it over, nor stops it.
  const status = await runCli(['projections', 'status'], { DATA_DIR: dataDir })
  t.equal(status.code, 0, status.stderr)
  t.same(postmaster(dataDir), cluster, 'the CLI left the orphaned cluster running')

  const second = await startServer(env)
  servers.push(second)
  t.same(postmaster(dataDir), cluster, 'the restarted server reuses the running cluster')
  const health = await fetch(`${second.baseUrl}/health`)
  t.equal(health.status, 200)

  // A projector that fails on every retry: the poison event is never applied; it is parked (a dead letter).
  const databaseUrl = databaseUrlOf(dataDir)
  const poison = await appendPoison(databaseUrl)
  await sleep(1_500)
  t.ok(await poisonParked(databaseUrl, poison), `the organizations projector parked the poison event at ${poison}`)
  t.ok(second.running(), 'the server keeps running while the projector fails')
  t.match(second.stdout(), /projection/i, 'and logs the failure')

  const asked = Date.now()
  second.kill('SIGTERM')
  const code = await second.exited(STOP_BOUND_MS)
  t.ok(Date.now() - asked < STOP_BOUND_MS, `stopped in ${Date.now() - asked} ms`)
  t.not(code, null, 'exited by itself, not by a signal')
  t.notOk(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), 'postmaster.pid is gone')
  const left = clusterProcesses(dataDir, cluster!.pid)
  t.same(left, [], `no postgres process of the cluster is left ${left.map((p) => describeProcess(p)).join('; ')}`)
})
