// The embedded default, as an operator meets it: the real server (`server/main.ts`) runs on a
// DATA_DIR, and the CLI on the same DATA_DIR attaches to the server's PostgreSQL, creates an
// organization whose key the running server accepts, and leaves the cluster running. Once the
// server has stopped, the CLI starts the cluster for itself and stops it again on exit.
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import t from 'tap'
import { stopClusterDir } from '../../server/database/embeddedPostgres.js'
import { nodeArgsFor } from '../harness/prebuilt.js'
import { REPO_ROOT, childEnv, freePort, runCli, stdoutJson } from './fixtures/runCli.js'

const SERVER_START_TIMEOUT_MS = 45_000
const SERVER_STOP_TIMEOUT_MS = 20_000

// Not created here: the server makes it, so the postgres user (when run as root) can reach it.
const dataDir = path.join(os.tmpdir(), `payments-cli-embedded-${randomBytes(6).toString('hex')}`)
const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid')
const port = await freePort()
const baseUrl = `http://127.0.0.1:${port}`

type Server = ChildProcessByStdio<null, Readable, Readable>

function exited(server: Server, timeoutMs: number): Promise<number | null> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve(server.exitCode)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not exit in time')), timeoutMs)
    server.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })
}

/** Resolves with the demo key the server prints once on first start. */
function demoKey(server: Server, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const timer = setTimeout(
      () => reject(new Error(`no demo key within ${SERVER_START_TIMEOUT_MS} ms: ${stderr()}`)),
      SERVER_START_TIMEOUT_MS,
    )
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk
      const line = buffered.split('\n').find((l) => l.startsWith('sk_sandbox_'))
      if (line) {
        clearTimeout(timer)
        resolve(line.trim())
      }
    })
    server.once('exit', (code) => reject(new Error(`server exited (${code}) before printing its key: ${stderr()}`)))
  })
}

/** Waits until the server answers HTTP (the key is printed just before it listens). */
async function listening(): Promise<void> {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS
  for (;;) {
    try {
      await fetch(`${baseUrl}/v1/webhooks/endpoints`)
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

async function stopStrayCluster(): Promise<void> {
  // Only after a failed test: a server killed hard leaves its pg_ctl-started cluster running.
  if (!existsSync(pidFile)) return
  await stopClusterDir(path.dirname(pidFile), 'immediate').catch(() => undefined)
}

const get = (apiKey: string) => fetch(`${baseUrl}/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${apiKey}` } })

t.test('orgs create beside a running server on the same DATA_DIR', async (t) => {
  const env = { DATA_DIR: dataDir }
  let stderr = ''
  const server: Server = spawn(process.execPath, nodeArgsFor('server/main.ts'), {
    cwd: REPO_ROOT,
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  t.teardown(async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM')
      await exited(server, SERVER_STOP_TIMEOUT_MS).catch(() => server.kill('SIGKILL'))
    }
    await stopStrayCluster()
    await rm(dataDir, { recursive: true, force: true })
  })

  const demo = await demoKey(server, () => stderr)
  await listening()
  t.equal((await get(demo)).status, 200, 'the demo key works')

  const run = await runCli(['orgs', 'create', '--name', 'Beside the server'], env)
  t.equal(run.code, 0, run.stderr)
  const created = stdoutJson<{ organizationId: string; apiKey: string; environment: string }>(run)
  t.equal(created.environment, 'sandbox')
  t.ok(existsSync(pidFile), "the CLI left the server's cluster running")
  t.equal((await get(created.apiKey)).status, 200, 'the running server accepts the key the CLI created')
  t.equal((await get(`sk_sandbox_${'y'.repeat(32)}`)).status, 401, 'and still refuses others')

  server.kill('SIGTERM')
  const code = await exited(server, SERVER_STOP_TIMEOUT_MS)
  // Graceful stop: the server closes HTTP, the runtime, and the cluster it started.
  t.equal(code, 0, 'the server stops cleanly on SIGTERM')
  t.notOk(existsSync(pidFile), 'the server stopped the cluster it started')
  await stopStrayCluster()

  // Server gone: the CLI starts the cluster itself, and stops it before it exits.
  const status = await runCli(['projections', 'status', '--json'], env)
  t.equal(status.code, 0, status.stderr)
  const body = stdoutJson<{ head: string; projections: { lagEvents: number }[] }>(status)
  t.ok(
    body.projections.every((p) => p.lagEvents === 0),
    'every projection caught up',
  )
  t.notOk(existsSync(pidFile), 'the CLI stopped the cluster it started')
})
