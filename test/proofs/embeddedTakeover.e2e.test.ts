// Issue 24, D13: two server processes on one DATA_DIR share the embedded PostgreSQL the first one
// started. Stopping that one, stopping the cluster under the other, or restarting while the old
// process is still shutting down must never leave a process without its database for good: while
// the database is away every request answers 503 (never 500), and within a bound the process
// serves again, having taken the cluster over (it is then the one that stops it).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import t, { type Test } from 'tap'
import { stopClusterDir } from '../../server/database/embeddedPostgres.js'
import { clusterDirOf, postmaster, stopStrayCluster } from './fixtures/embeddedCluster.js'
import { type ServerProcess, startServer } from './fixtures/serverProcess.js'
import { type Api, call } from './fixtures/workload.js'

const TAKEOVER_LIMITS = {
  /** server/main.ts's SHUTDOWN_TIMEOUT_MS plus process start-up slack. */
  stopBoundMs: 15_000 + 5_000,
  /** Longest a process may go without its database once the cluster is gone (notice, start, reconnect). */
  recoveryBoundMs: 20_000,
  /** Pause between the probe's writes. */
  probeIntervalMs: 50,
} as const

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `{"201":3,"503":12}`: statuses counted, for a message. */
const countsOf = (statuses: number[]): string =>
  JSON.stringify(statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {}))

function newDataDir(t: Test, servers: ServerProcess[]): string {
  const dataDir = path.join(os.tmpdir(), `payments-takeover-${randomBytes(6).toString('hex')}`)
  t.teardown(async () => {
    for (const s of servers) if (s.running()) s.kill('SIGKILL')
    await stopStrayCluster(dataDir)
    await rm(dataDir, { recursive: true, force: true })
  })
  return dataDir
}

const ownerPid = (dataDir: string): number | undefined => {
  try {
    return (JSON.parse(readFileSync(path.join(dataDir, 'postgres-owner.json'), 'utf8')) as { pid: number }).pid
  } catch {
    return undefined
  }
}

/** The owner's pid once it is `pid`, or the last one seen after `ms`. */
async function ownerPidWithin(dataDir: string, pid: number | undefined, ms: number): Promise<number | undefined> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50)))
    if (ownerPid(dataDir) === pid) return pid
  return ownerPid(dataDir)
}

type Probe = { statuses: number[]; stop(): Promise<void> }

/** Writes (a customer) and reads (the list) against one server in a loop, recording every status. */
function probe(api: Api): Probe {
  const statuses: number[] = []
  let running = true
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const res =
        i % 2 === 0
          ? await call(api, 'POST', '/v1/customers/individuals', { firstName: 'Probe', lastName: String(i) })
          : await call(api, 'GET', '/v1/customers?limit=1')
      statuses.push(res.status)
      await sleep(TAKEOVER_LIMITS.probeIntervalMs)
    }
  })()
  return {
    statuses,
    async stop() {
      running = false
      await loop
    },
  }
}

/** The first write, read back, that succeeds within the recovery bound; the statuses met on the way. */
async function serving(api: Api): Promise<{ ok: boolean; seen: number[] }> {
  const seen: number[] = []
  const deadline = Date.now() + TAKEOVER_LIMITS.recoveryBoundMs
  while (Date.now() < deadline) {
    const created = await call(api, 'POST', '/v1/customers/individuals', { firstName: 'After', lastName: 'Takeover' })
    seen.push(created.status)
    if (created.status === 201) {
      const read = await call(api, 'GET', `/v1/customers/${String(created.body.id)}`)
      seen.push(read.status)
      if (read.status === 200) return { ok: true, seen }
    }
    await sleep(TAKEOVER_LIMITS.probeIntervalMs)
  }
  return { ok: false, seen }
}

/** Every status a request met while the database was away: a success, or 503 in the error body (0: no answer at all). */
function assertNever500(t: Test, statuses: number[], what: string): void {
  t.same(
    statuses.filter((s) => s !== 200 && s !== 201 && s !== 503),
    [],
    `${what}: only 2xx and 503 (${countsOf(statuses)})`,
  )
}

async function healthOf(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.baseUrl}/health`).catch(() => undefined)
  return res ? String(((await res.json()) as { status?: string }).status) : 'no answer'
}

t.test('the server that started the cluster stops: the other one keeps (or regains) its database and owns it', async (t) => {
  const servers: ServerProcess[] = []
  const dataDir = newDataDir(t, servers)
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' }
  const first = await startServer(env)
  servers.push(first)
  const second = await startServer(env)
  servers.push(second)
  t.equal(ownerPid(dataDir), first.pid, 'the first server started the cluster and owns it')
  const api: Api = { baseUrl: second.baseUrl, apiKey: first.demoKey! }
  t.equal((await call(api, 'POST', '/v1/customers/individuals', { firstName: 'Before', lastName: 'Stop' })).status, 201)

  const load = probe(api)
  first.kill('SIGTERM')
  t.equal(await first.exited(TAKEOVER_LIMITS.stopBoundMs), 0, 'the first server stops cleanly')
  const recovered = await serving(api)
  await load.stop()
  t.ok(recovered.ok, `the second server serves writes again within ${TAKEOVER_LIMITS.recoveryBoundMs} ms (${countsOf(recovered.seen)})`)
  assertNever500(t, [...load.statuses, ...recovered.seen], 'while the first server stopped')
  t.ok(postmaster(dataDir), 'the cluster runs')
  t.equal(ownerPid(dataDir), second.pid, 'the second server owns it now')
  t.equal(await healthOf(second), 'ok', '/health is ok')

  second.kill('SIGTERM')
  t.equal(await second.exited(TAKEOVER_LIMITS.stopBoundMs), 0)
  t.notOk(postmaster(dataDir), 'and its SIGTERM stops the cluster')
})

t.test('the cluster stops under a server that did not start it: 503 while it is away, then the server starts it', async (t) => {
  const servers: ServerProcess[] = []
  const dataDir = newDataDir(t, servers)
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' }
  const first = await startServer(env)
  servers.push(first)
  const second = await startServer(env)
  servers.push(second)
  const api: Api = { baseUrl: second.baseUrl, apiKey: first.demoKey! }
  // The owner dies (its cluster runs on), then the database stops as a crashed or forced owner would leave it.
  first.kill('SIGKILL')
  await first.exited(5_000)
  await stopClusterDir(clusterDirOf(dataDir), 'immediate')
  t.notOk(postmaster(dataDir), 'the cluster is down')

  const write = await call(api, 'POST', '/v1/customers/individuals', { firstName: 'While', lastName: 'Down' })
  const read = await call(api, 'GET', '/v1/customers?limit=1')
  t.equal(write.status, 503, `a write while the database is away: 503 (${JSON.stringify(write.body)})`)
  t.match(write.body, { error: 'ServiceUnavailableError', code: 'database_unavailable', statusCode: 503, requestId: String })
  t.equal(read.status, 503, 'a read too')
  t.match(read.body, { error: 'ServiceUnavailableError', code: 'database_unavailable' })

  const recovered = await serving(api)
  t.ok(recovered.ok, `serves writes again within ${TAKEOVER_LIMITS.recoveryBoundMs} ms (${countsOf(recovered.seen)})`)
  assertNever500(t, recovered.seen, 'until it took the cluster over')
  t.ok(postmaster(dataDir), 'the cluster runs again')
  // The server claims the cluster just after starting it, and a request may reach the database in between: bounded wait.
  t.equal(await ownerPidWithin(dataDir, second.pid, 5_000), second.pid, 'started and owned by the second server')
  t.equal(await healthOf(second), 'ok', '/health went from unavailable back to ok')

  second.kill('SIGTERM')
  t.equal(await second.exited(TAKEOVER_LIMITS.stopBoundMs), 0)
  t.notOk(postmaster(dataDir), 'its SIGTERM stops the cluster it started')
})

t.test('a restart issued while the old server is still shutting down: the new one keeps the database', async (t) => {
  const servers: ServerProcess[] = []
  const dataDir = newDataDir(t, servers)
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' }
  const old = await startServer(env)
  servers.push(old)
  const apiKey = old.demoKey!
  // A request whose body never finishes keeps the old server's HTTP close (so its whole stop) waiting.
  const slow = net.connect(old.port, '127.0.0.1')
  await new Promise((resolve) => slow.once('connect', resolve))
  slow.write(
    'POST /v1/customers/individuals HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Authorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"firstName":`,
  )
  await sleep(200)
  old.kill('SIGTERM')
  await sleep(200)
  t.ok(old.running(), 'the old server is still shutting down')

  const signalled = Date.now()
  const next = await startServer(env)
  servers.push(next)
  t.comment(`the new server answered ${Date.now() - signalled} ms after the SIGTERM; the old one still running: ${old.running()}`)
  const api: Api = { baseUrl: next.baseUrl, apiKey }
  const load = probe(api)
  slow.destroy()
  // 0 after an orderly stop; 1 when the new server took longer to start than the old one's stop bound (it then stops by force).
  const code = await old.exited(TAKEOVER_LIMITS.stopBoundMs)
  t.ok(code === 0 || code === 1, `the old server finished its stop (exit ${String(code)})`)
  const recovered = await serving(api)
  await load.stop()
  t.ok(recovered.ok, `the new server serves writes within ${TAKEOVER_LIMITS.recoveryBoundMs} ms (${countsOf(recovered.seen)})`)
  assertNever500(t, [...load.statuses, ...recovered.seen], 'while the old server finished its stop')
  t.ok(postmaster(dataDir), 'the cluster runs')
  t.equal(ownerPid(dataDir), next.pid, 'the new server owns it')

  next.kill('SIGTERM')
  t.equal(await next.exited(TAKEOVER_LIMITS.stopBoundMs), 0)
  t.notOk(postmaster(dataDir), 'and stops it')
})
