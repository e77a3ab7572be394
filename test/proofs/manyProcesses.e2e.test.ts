// Many processes, one store (issue 25, point 6): three service processes (server/main.ts, each on
// its own port) on one PostgreSQL database take 2 000 mixed commands from a round-robin client, 20
// in flight, many of them on the same streams from different processes (a hot balance account, a
// hot endpoint, a hot customer). Proven: every answered change reads back at once on another
// process (read models are written in the command's transaction); no 409 reaches a client from the
// processes' concurrency (stream locks); each timer fired once and each workflow command took
// effect once (SKIP LOCKED, command ids); every event a public type maps to has exactly one webhook
// message, delivered once to each endpoint; `ledger verify` is clean; the processes stop cleanly.
import { randomBytes } from 'node:crypto'
import { inspect } from 'node:util'
import pg from 'pg'
import t from 'tap'
import { streams } from '../../events/streams.js'
import { runCli, stdoutJson } from '../cli/fixtures/runCli.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { type Receiver, startReceiver } from '../webhooks/deliveryReceiver.js'
import type { Api } from './fixtures/manyProcesses/api.js'
import { type Kind, type Outcome, newRun, runMix } from './fixtures/manyProcesses/mix.js'
import { deliveryReport, effects, messageProblems, notQuiet } from './fixtures/manyProcesses/storeChecks.js'
import { buildWorld } from './fixtures/manyProcesses/world.js'
import { seededRandom } from './fixtures/workload.js'
import { type ServerProcess, startServer } from './fixtures/serverProcess.js'

const MANY = {
  processes: 3,
  commands: 2_000,
  inFlight: 20,
  /** How long the processes get to finish what the commands set off (transfers, timers, deliveries). */
  quietWithinMs: 60_000,
  /** server/main.ts's SHUTDOWN_TIMEOUT_MS plus slack. */
  stopWithinMs: 20_000,
} as const

// 2 000 commands of which several hundred wait for the workflows (balance-funded transfers, cancels, simulated
// deposits): about 100 s here, twice that beside another suite on a loaded machine; tap's default would cut it.
t.setTimeout(360_000)

const seed = Number(process.env.MANY_PROCESSES_SEED ?? 20_260_606)
t.comment(`many-processes proof seed ${seed} (MANY_PROCESSES_SEED sets it)`)

const databaseUrl = await createTestDatabase(t)
const receiver: Receiver = await startReceiver()
t.teardown(() => receiver.close())
const env = {
  DATABASE_URL: databaseUrl,
  // One key-encryption key for every process, as an operator running several would configure it.
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  LOG_LEVEL: 'warn',
  // Sandbox rails steps fast, so the timers that move transfers fire within the run.
  SANDBOX_RAIL_DELAYS_MS: 'ACH=300,BALANCE=200',
}
const servers: ServerProcess[] = []
// On any failure: no process outlives the test.
t.teardown(() => {
  for (const s of servers) if (s.running()) s.kill('SIGKILL')
})
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
t.teardown(() => pool.end())

// Started together on the empty database, as a deployment would start them.
const started = await Promise.allSettled(Array.from({ length: MANY.processes }, () => startServer(env)))
for (const s of started) if (s.status === 'fulfilled') servers.push(s.value)
const failedStart = started.find((s) => s.status === 'rejected')
if (failedStart) throw failedStart.reason
// No assertion before the subtests: tap would end the root test at the first one and run its teardown (killing the processes).
const demoKeys = servers.map((s) => s.demoKey).filter((k) => k !== undefined)
const apiKey = demoKeys[0]
if (!apiKey) throw new Error(`no process printed a demo key: ${servers.map((s) => s.stdout()).join('\n')}`)
const apis: Api[] = servers.map((s, i) => ({ name: `process ${i + 1}`, baseUrl: s.baseUrl, apiKey }))

/** What each process wrote and how it ended, if it did: the evidence when a request finds a process gone. */
async function serverEvidence(): Promise<string> {
  const lines = await Promise.all(
    servers.map(async (s, i) => {
      const end = s.running() ? 'running' : `exited with ${String(await s.exited(1_000).catch(() => 'no exit code'))}`
      return `process ${i + 1} (pid ${s.pid}, port ${s.port}, ${end}): ${`${s.stdout()}\n${s.stderr()}`.slice(-6_000)}`
    }),
  )
  return lines.join('\n')
}
const world = await buildWorld(apis[0]!, receiver).catch(async (error: unknown) => {
  throw new Error(`setting up the world failed: ${inspect(error)}\n${await serverEvidence()}`)
})
const run = newRun(world, receiver, seededRandom(seed))
const startedAt = Date.now()
const outcomes: Outcome[] = await runMix(run, apis, MANY.commands, MANY.inFlight)
t.comment(`${MANY.commands} commands over ${MANY.processes} processes in ${Date.now() - startedAt} ms; ${run.reads} reads`)

function tally(of: readonly Outcome[]): Record<string, Record<string, number>> {
  const byKind: Record<string, Record<string, number>> = {}
  for (const o of of) {
    const statuses = (byKind[o.kind] ??= {})
    const key = o.code ? `${o.status} ${o.code}` : String(o.status)
    statuses[key] = (statuses[key] ?? 0) + 1
  }
  return byKind
}

/** Per kind: how many, and the answer time's median, 95th percentile and maximum (ms): for the report, never asserted. */
function latencies(of: readonly Outcome[]): string {
  const byKind = new Map<string, number[]>()
  for (const o of of) byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o.ms])
  return [...byKind]
    .map(([kind, ms]) => {
      const sorted = ms.sort((a, b) => a - b)
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
      return `${kind} ${sorted.length}: ${at(0.5)}/${at(0.95)}/${sorted[sorted.length - 1]}`
    })
    .join('; ')
}
t.comment(`answer times by kind (count: p50/p95/max ms): ${latencies(outcomes)}`)

t.test('every command is answered as expected, none with a conflict', async (t) => {
  t.equal(demoKeys.length, 1, 'one of the three processes started together on the empty store created the demo organization')
  t.equal(outcomes.length, MANY.commands, `${MANY.commands} commands sent`)
  const byStatus: Record<string, number> = {}
  for (const o of outcomes) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1
  t.comment(`answers by status: ${JSON.stringify(byStatus)}`)
  t.comment(`answers by kind: ${JSON.stringify(tally(outcomes))}`)
  const conflicts = outcomes.filter((o) => o.status === 409)
  t.same(
    conflicts.map((o) => `#${o.index} ${o.kind} on ${o.writeOn}: ${o.text.slice(0, 300)}`),
    [],
    'no 409: concurrency across processes never reaches a client',
  )
  // Every command of the mix is one the service accepts: any other answer (422 included) is reported.
  const unexpected = outcomes.filter((o) => o.status !== 409 && o.status >= 300)
  t.same(
    unexpected.map((o) => `#${o.index} ${o.kind} on ${o.writeOn}: ${o.status} ${o.text.slice(0, 300)}`),
    [],
    'every other answer is the expected success',
  )
  const kinds = new Set<Kind>(outcomes.map((o) => o.kind))
  t.ok(kinds.size >= 15, `a mix of ${kinds.size} kinds of command`)
})

t.test('every answered change reads back at once on another process', async (t) => {
  const misses = outcomes.filter((o) => o.miss !== undefined)
  t.same(
    misses.map((o) => `#${o.index} ${o.kind} written on ${o.writeOn}: ${o.miss}`),
    [],
    `0 read misses in ${run.reads} reads`,
  )
})

t.test('the processes finish what the commands set off', async (t) => {
  const deadline = Date.now() + MANY.quietWithinMs
  let reasons = await notQuiet(pool, run.wallets)
  while (reasons.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    reasons = await notQuiet(pool, run.wallets)
  }
  t.same(reasons, [], 'no transfer on its way, no timer due, every wallet reviewed, every message stored and delivered')
})

t.test('each timer and each workflow command took effect once', async (t) => {
  const report = await effects(pool)
  t.comment(
    `${report.timers} timers fired with an effect, ${report.workflowCommands} workflow commands, ${run.wallets.length} wallets reviewed`,
  )
  t.ok(report.timers > 0, 'timers fired')
  t.same(report.repeated, [], 'no command id appended twice: one firing per timer')
  t.same(report.legsTwice, [], 'no transfer leg started or completed twice')
  t.equal(report.parkedTimers, 0, 'no timer parked')
  t.equal(report.consumerFailures, 0, 'no consumer failing')
  t.equal(report.parkedEvents, 0, 'no event parked')
})

t.test('one webhook message per event, each delivered once per endpoint', async (t) => {
  t.same(await messageProblems(pool), [], 'every event a public type maps to has its message, and no other message exists')
  const report = await deliveryReport(pool, receiver)
  t.comment(
    `${report.messages} messages, ${report.deliveries} deliveries, ${report.received} requests received, ${report.attempts} attempts`,
  )
  t.same(report.missing, [], 'every delivery reached the receiver with its message id')
  t.same(report.twice, [], 'none twice')
  t.equal(report.attempts, report.deliveries, 'one attempt per delivery')
})

t.test('the processes stop cleanly and the ledger verifies', async (t) => {
  for (const s of servers) s.kill('SIGTERM')
  const codes = await Promise.all(servers.map((s) => s.exited(MANY.stopWithinMs)))
  t.same(codes, [0, 0, 0], 'each process exits 0 on SIGTERM')
  const verify = await runCli(['ledger', 'verify', '--json', '--sample', 'all'], {
    DATABASE_URL: databaseUrl,
    DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY,
  })
  t.equal(verify.code, 0, `ledger verify: ${verify.stderr.slice(0, 1_000)}`)
  if (verify.code === 0) {
    const report = stdoutJson<{ consistent: boolean; transactions: number; aggregatesCompared: number }>(verify)
    t.equal(report.consistent, true, 'the ledger is consistent')
    // The hot account's stream is longer than one read page: verify folds it whole (it once stopped at the first page).
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_events WHERE stream_name = $1', [
      streams.account(world.hot),
    ])
    t.comment(
      `${report.transactions} ledger transactions, ${report.aggregatesCompared} accounts folded; the hot one has ${rows[0]?.n} events`,
    )
  }
  const warnings = servers.flatMap((s) => s.stdout().split('\n')).filter((line) => line.startsWith('{'))
  const first = warnings.length > 0 ? `, first: ${warnings[0]!.slice(0, 300)}` : ''
  t.comment(`${warnings.length} warning or error lines logged by the processes${first}`)
})
