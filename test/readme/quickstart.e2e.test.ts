// README.md's Quickstart, run as a reader runs it: its `npm start` block as the server (a real process
// on a fresh database), then its other marked blocks in order, in one bash with `set -euo pipefail`.
// The transfer must reach COMPLETED and the reader's receiver get a transfer.completed webhook whose
// signature verifies with the endpoint's secret (standardwebhooks).
//
// What the test changes, and nothing else: the environment names the test's PostgreSQL (DATABASE_URL),
// a temporary DATA_DIR (also TMPDIR) and a free PORT (the server and the CLI read them, as a reader's
// would with defaults); in the blocks, `localhost:3000` becomes the server's port and `4567` (the receiver's port)
// a free one, so runs beside each other do not collide.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { REPO_ROOT, childEnv, freePort } from '../cli/fixtures/runCli.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { installDebianPackage } from '../harness/debianPackage.js'

const QUICKSTART_LIMITS = {
  /** `npm start` runs through tsx: its first start compiles the server. */
  serverStartMs: 50_000,
  /** The whole walkthrough (its loops wait at most 60 s for the transfer, 30 s for the webhook); with the start, under tap's 180 s. */
  blocksMs: 110_000,
  serverStopMs: 15_000,
} as const

type Block = { kind: 'server' | 'run'; code: string }

/** The fenced sh blocks of README.md's Quickstart section, each with the marker comment before it. */
function quickstartBlocks(readme: string): { blocks: Block[]; unmarked: number } {
  const start = readme.indexOf('\n## Quickstart\n')
  if (start < 0) throw new Error('README.md has no "## Quickstart" section')
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  const blocks = [...section.matchAll(/<!-- quickstart(:server)? -->\n```sh\n([\s\S]*?)```/g)].map((m): Block => ({
    kind: m[1] ? 'server' : 'run',
    code: m[2]!,
  }))
  const fenced = [...section.matchAll(/```sh\n/g)].length
  return { blocks, unmarked: fenced - blocks.length }
}

/** Runs `script` in its own process group (its background jobs with it); resolves with its exit code and output. */
function runGroup(script: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs)
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    }),
  )
  return { child, done, output: () => ({ stdout, stderr }) }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8')
const { blocks, unmarked } = quickstartBlocks(readme)

t.test('the Quickstart takes a fresh service to a COMPLETED transfer and a signed webhook', async (t) => {
  const began = Date.now()
  t.equal(unmarked, 0, 'every sh block of the Quickstart is marked, so every one is run')
  const server = blocks.filter((b) => b.kind === 'server')
  const run = blocks.filter((b) => b.kind === 'run')
  t.equal(server.length, 1, 'one server block')
  t.ok(run.length >= 5, `${run.length} blocks to run`)
  const onPath = (tool: string) => spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0
  // jq is the one a fresh machine tends to lack: installed as .ci/run does, where the machine allows it.
  if (!onPath('jq')) installDebianPackage('jq')
  t.ok(['curl', 'jq', 'npm'].every(onPath), 'curl, jq and npm on PATH, as a reader has them (`apt-get install jq`)')

  const [apiPort, hookPort] = [await freePort(), await freePort()]
  const substitute = (code: string) => code.replaceAll('localhost:3000', `localhost:${apiPort}`).replaceAll('4567', String(hookPort))
  const database = await makeTestDatabase()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quickstart-'))
  // TMPDIR: the receiver's file (mktemp) is removed with the data directory, whatever happens.
  const env = childEnv({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(apiPort), TMPDIR: dataDir })
  const service = runGroup(substitute(server[0]!.code), env, QUICKSTART_LIMITS.serverStartMs + QUICKSTART_LIMITS.blocksMs)
  t.teardown(async () => {
    killGroup(service.child, 'SIGTERM')
    const stopped = await Promise.race([service.done, new Promise((r) => setTimeout(r, QUICKSTART_LIMITS.serverStopMs, 'late'))])
    if (stopped === 'late') killGroup(service.child, 'SIGKILL')
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  const deadline = Date.now() + QUICKSTART_LIMITS.serverStartMs
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${apiPort}/health`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (up) break
    if (service.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not answer /health: ${JSON.stringify(service.output())}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  const serverStarted = Date.now()

  // The variables the walkthrough leaves, printed at its end for the checks below.
  const script = [
    'set -euo pipefail',
    ...run.map((b) => substitute(b.code)),
    'printf "QUICKSTART %s %s %s %s\\n" "$KEY" "$TRANSFER" "$SECRET" "$HOOKS"',
  ].join('\n')
  const walk = runGroup(script, env, QUICKSTART_LIMITS.blocksMs)
  const result = await walk.done
  killGroup(walk.child, 'SIGKILL') // a receiver left behind by a failed run
  const [, key, transferId, secret, hooks] = /^QUICKSTART (\S+) (\S+) (\S+) (\S+)$/m.exec(result.stdout) ?? []
  t.equal(result.code, 0, 'every block ran without an error')
  if (result.code !== 0 || !key || !transferId || !secret || !hooks) {
    t.fail(`the walkthrough failed:\n${result.stdout}\n${result.stderr}`)
    return
  }

  const transfer = await fetch(`http://127.0.0.1:${apiPort}/v1/transfers/${transferId}`, { headers: { authorization: `Bearer ${key}` } })
  t.match(await transfer.json(), { id: transferId, status: 'COMPLETED' }, 'the transfer is COMPLETED')

  type Delivery = { verified: boolean; id: string; timestamp: string; signature: string; body: string }
  const deliveries = (await readFile(hooks, 'utf8'))
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Delivery)
  const webhook = new Webhook(secret)
  const payloads = deliveries.map((d) =>
    webhook.verify(d.body, { 'webhook-id': d.id, 'webhook-timestamp': d.timestamp, 'webhook-signature': d.signature }),
  ) as { type: string; data: { id: string; status: string } }[]
  t.ok(
    deliveries.every((d) => d.verified),
    "every delivery passed the receiver's own check",
  )
  t.ok(
    payloads.some((p) => p.type === 'transfer.completed' && p.data.id === transferId && p.data.status === 'COMPLETED'),
    'the receiver got transfer.completed, its signature verified by standardwebhooks',
  )
  t.comment(
    `server start ${((serverStarted - began) / 1000).toFixed(1)} s, walkthrough ${((Date.now() - serverStarted) / 1000).toFixed(1)} s`,
  )
})
