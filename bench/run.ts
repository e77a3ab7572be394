// `npm run bench`: store appends, the HTTP command and query paths, and their ceilings (GET /health,
// a fastify + zod + one INSERT toy), and a hold on an account with a million prior postings against
// one on a fresh account (historyBench.ts), on a real PostgreSQL, printed as one table with the targets.
import os from 'node:os'
import { getPostgresEventStore } from '../events/store/postgres/index.js'
import { type AppendBenchResult, runAppendBench } from './appendBench.js'
import { killAllChildren, startServerChild, type ServerChild } from './child.js'
import { type CpuShares, measureCpu, rateAtFullMachine, rateAtFullServerCore } from './cpu.js'
import { type BenchPostgres, openBenchPostgres } from './database.js'
import { type HttpBenchResult, type HttpTarget, runHttpBench } from './httpBench.js'
import { type Cell, formatMs, formatNumber, formatTable } from './table.js'
import { WEBHOOK_BENCH_PLAN, type WebhookBenchResult, runWebhookBench } from './webhookBench.js'
import { READ_BENCH_PLAN, READ_TARGETS, type ReadBenchResult, runReadBench } from './readBench.js'
import { type ProtectionBenchResult, runProtectionBench } from './protectionBench.js'
import { ACCOUNT_LIST_BENCH_PLAN, type AccountListBenchResult, runAccountListBench } from './accountListBench.js'
import { ACCOUNT_SEED_PLAN } from './accountListSeed.js'
import { HOLDS_BENCH_PLAN, holdTargets } from './holdsBench.js'
import { TRANSFER_CREATE_BENCH_PLAN, TRANSFER_CREATE_TARGETS, transferCreateTarget } from './transferCreateBench.js'
import { balanceTransferCreateTarget } from './agentTransferCreateBench.js'
import { combineRounds } from './rounds.js'
import { HISTORY_BENCH_PLAN, HISTORY_TARGETS, type HistoryBenchResult, runHistoryBench } from './historyBench.js'
import { TRANSFER_LIST_BENCH_PLAN, TRANSFER_LIST_TARGETS, type TransferListBenchResult, runTransferListBench } from './transferListBench.js'
import { TRANSFER_SEED_PLAN } from './transferListSeed.js'
import {
  INTEGRITY_BENCH_PLAN,
  INTEGRITY_TARGETS,
  type IntegrityBenchResult,
  type VerifyPass,
  combineAppendRounds,
  chainRatios,
  runIntegrityBench,
} from './integrityBench.js'
import { type AcceptRace, FX_BENCH_PLAN, type FxBenchResult, runFxBench } from './fxBench.js'
import { REBUILD_BENCH_PLAN, REBUILD_TARGETS, type RebuildBenchResult, type RebuildRun, runRebuildBench } from './rebuildBench.js'

export const BENCH_PLAN = {
  singleWriterAppends: 2_000,
  concurrentWriters: 20,
  concurrentAppends: 20_000,
  // As many as one measured run: the first 20,000 appends of a fresh process run ~25% slower while
  // V8 tiers up the driver and store code; a steady service is what the target is about.
  warmUpAppends: 20_000,
  connections: 50,
  warmUpSeconds: 1,
  commandSeconds: 10,
  hotStreamSeconds: 5,
  /** The hot stream again with a second service process on the same database, half the connections on each. */
  hotStreamProcesses: 2,
  querySeconds: 10,
  healthSeconds: 5,
  /**
   * The toy and the endpoint create in turn, round after round (toySeconds in all for each): measured minutes apart,
   * the toy's rate varied 2 100-3 500 req/s between runs while the service's varied less. Not the transfer create: the
   * work a transfer sets off after its answer (workflows, timers, webhooks) would weigh on the next round.
   */
  toySeconds: 10,
  comparedRounds: 2,
  seededEndpoints: 20,
  /** Customers whose verification data is saved in turn (one stream each, so no stream is hot). */
  verificationCustomers: 200,
  verificationSeconds: 10,
  /** Before starting, wait up to this long for other processes to go quiet (the machine may be shared). */
  quietWaitMs: 20_000,
  /**
   * The whole run is abandoned past this. A whole run took 1 205 s on 2026-11-28 (the history rows append a million
   * events, about 3 minutes; the transfer lists seed a million rows, about 10): a third more, for a slower machine.
   */
  deadlineMs: 1_800_000,
} as const

export const TARGETS = {
  /** Issue 25: projections inline on the Postgres store bring an endpoint create to the toy's speed again. */
  commandToToyRatio: 0.85,
  commandP99Ms: 25,
  concurrentEventsPerSecond: 20_000,
} as const

const HOT_STREAM_BODY = JSON.stringify({ description: 'hot stream update' })
const ENDPOINT_BODY = JSON.stringify({
  url: 'https://hooks.example.com/payments',
  description: 'benchmark endpoint',
  filterTypes: ['transfer.completed', 'transfer.failed'],
  metadata: { team: 'bench' },
})

// What a verification save carries: every kind of sensitive field (sealed in the event and the read model).
const VERIFICATION_BODY = JSON.stringify({
  phone: '+14155550123',
  dateOfBirth: '1990-12-10',
  nationality: 'US',
  taxIdentificationNumber: '123-45-6789',
  address: { addressLine1: '1 Main St', addressLine2: 'Apt 4', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
})

const log = (message: string) => process.stderr.write(`bench: ${message}\n`)

/**
 * `BENCH_ONLY=commands` runs the command rows alone (appends, the service inline and asynchronous, the toy):
 * a few minutes instead of twenty, for work on the command path; `BENCH_ONLY=integrity` the hash chain's cost
 * and the audit checks (bench/integrityBench.ts); `BENCH_ONLY=rebuild` a projection rebuilt over a million
 * events (bench/rebuildBench.ts, about three minutes). Unset, every row runs.
 */
const ONLY = process.env.BENCH_ONLY
if (ONLY !== undefined && ONLY !== 'commands' && ONLY !== 'integrity' && ONLY !== 'rebuild')
  throw new Error(`BENCH_ONLY is 'commands', 'integrity', 'rebuild' or unset, not ${JSON.stringify(ONLY)}`)

let database: BenchPostgres | undefined
const children = new Set<ServerChild>()
let cleaned = false

async function cleanUp(): Promise<void> {
  if (cleaned) return
  cleaned = true
  await Promise.all([...children].map((c) => c.stop()))
  await database?.close()
}

function abort(reason: string, code: number): void {
  log(reason)
  killAllChildren()
  const force = setTimeout(() => process.exit(code), 15_000)
  force.unref()
  void cleanUp().finally(() => process.exit(code))
}
process.on('SIGINT', () => abort('interrupted; cleaning up', 130))
process.on('SIGTERM', () => abort('terminated; cleaning up', 143))
const deadline = setTimeout(() => abort(`exceeded ${BENCH_PLAN.deadlineMs / 1000} s; cleaning up`, 1), BENCH_PLAN.deadlineMs)
deadline.unref()

async function startChild(script: string, env: Record<string, string>): Promise<ServerChild> {
  const child = await startServerChild(script, env)
  children.add(child)
  return child
}

async function stopChild(child: ServerChild): Promise<void> {
  await child.stop()
  children.delete(child)
}

type Measured<T> = T & { cpu: CpuShares | undefined }

async function measure(name: string, server: ServerChild, target: HttpTarget, seconds: number): Promise<Measured<HttpBenchResult>> {
  log(`${name}: warm-up ${BENCH_PLAN.warmUpSeconds} s, then ${seconds} s at ${BENCH_PLAN.connections} connections`)
  await runHttpBench(target, { connections: BENCH_PLAN.connections, durationSeconds: BENCH_PLAN.warmUpSeconds })
  const cpu = measureCpu(server.pid, database?.postmasterPid)
  const result = await runHttpBench(target, { connections: BENCH_PLAN.connections, durationSeconds: seconds })
  if (result.non2xx > 0) log(`${name}: status codes ${JSON.stringify(result.statusCodes)}`)
  return { ...result, cpu: cpu?.() }
}

async function measureAppends(
  store: Parameters<typeof runAppendBench>[0],
  writers: number,
  appends: number,
): Promise<Measured<AppendBenchResult>> {
  log(`appends: ${writers} writer${writers > 1 ? 's' : ''}, ${appends} in all`)
  const cpu = measureCpu(undefined, database?.postmasterPid)
  const result = await runAppendBench(store, writers, appends)
  return { ...result, cpu: cpu?.() }
}

async function appendPhase(db: BenchPostgres) {
  const store = await getPostgresEventStore({
    connectionString: await db.createDatabase('store'),
    onError: (e) => log(`store: ${String(e)}`),
  })
  try {
    await runAppendBench(store, BENCH_PLAN.concurrentWriters, BENCH_PLAN.warmUpAppends)
    const one = await measureAppends(store, 1, BENCH_PLAN.singleWriterAppends)
    const many = await measureAppends(store, BENCH_PLAN.concurrentWriters, BENCH_PLAN.concurrentAppends)
    return { one, many }
  } finally {
    await store.close()
  }
}

async function apiPhase(db: BenchPostgres) {
  const databaseUrl = await db.createDatabase('app')
  const toyServer = await startChild('./toyServer.ts', { DATABASE_URL: await db.createDatabase('toy') })
  const api = await startChild('./serveApp.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' })
  try {
    const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
    const endpoints = `${api.baseUrl}/v1/webhooks/endpoints`
    for (let i = 0; i < BENCH_PLAN.seededEndpoints; i++) {
      const response = await fetch(endpoints, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: ENDPOINT_BODY,
      })
      if (response.status !== 201) throw new Error(`seeding an endpoint answered ${response.status}: ${await response.text()}`)
    }
    const listed = (await (await fetch(endpoints, { headers: auth })).json()) as { data: unknown[] }
    if (listed.data.length !== BENCH_PLAN.seededEndpoints)
      throw new Error(`GET listed ${listed.data.length} endpoints after seeding ${BENCH_PLAN.seededEndpoints}`)

    const health = await measure('GET /health', api, { url: `${api.baseUrl}/health`, method: 'GET' }, BENCH_PLAN.healthSeconds)
    const query = await measure(
      'GET /v1/webhooks/endpoints',
      api,
      { url: endpoints, method: 'GET', headers: auth },
      BENCH_PLAN.querySeconds,
    )
    const createEndpoint: HttpTarget = { url: endpoints, method: 'POST', headers: auth, body: ENDPOINT_BODY }
    const transferTarget = await transferCreateTarget(api, auth)
    const agentTransferTarget = await balanceTransferCreateTarget(api, auth, 'agent')
    const balanceTransferTarget = await balanceTransferCreateTarget(api, auth, 'platform')
    const [toy, command] = await measureInRounds([
      { name: 'toy POST', server: toyServer, target: { url: `${toyServer.baseUrl}/toy/endpoints`, method: 'POST', body: ENDPOINT_BODY } },
      { name: 'POST /v1/webhooks/endpoints', server: api, target: createEndpoint },
    ])
    await stopChild(toyServer)
    // After the toy's rounds: the workflows, rails timers and webhooks a transfer sets off run on after it is answered.
    const transferCreate = await measure('POST /v1/transfers', api, transferTarget, TRANSFER_CREATE_BENCH_PLAN.seconds)
    const balanceTransferCreate = await measure(
      'POST /v1/transfers from one balance account',
      api,
      balanceTransferTarget,
      TRANSFER_CREATE_BENCH_PLAN.seconds,
    )
    const agentTransferCreate = await measure(
      'POST /v1/transfers with an agent key',
      api,
      agentTransferTarget,
      TRANSFER_CREATE_BENCH_PLAN.seconds,
    )
    // One hot stream: every request updates the same endpoint, so commands are decided in turn.
    const hot = (await (
      await fetch(endpoints, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: ENDPOINT_BODY })
    ).json()) as { id: string }
    const hotStream = await measure(
      'PUT /v1/webhooks/endpoints/{id} (one hot stream)',
      api,
      { url: `${endpoints}/${hot.id}`, method: 'PUT', headers: auth, body: HOT_STREAM_BODY },
      BENCH_PLAN.hotStreamSeconds,
    )
    const verificationSave = await measureVerificationSaves(api, auth)
    const holds = await holdTargets(api, auth)
    const hotAccount = await measure('POST /v1/accounts/{id}/holds (one hot account)', api, holds.hot, HOLDS_BENCH_PLAN.seconds)
    const spreadHolds = await measure(
      `POST /v1/accounts/{id}/holds (${HOLDS_BENCH_PLAN.accounts} accounts)`,
      api,
      holds.spread,
      HOLDS_BENCH_PLAN.seconds,
    )
    const twoProcessHotStream = await measureHotStreamOnTwoProcesses(db, databaseUrl, api, auth)
    // Last, since it leaves the read models behind: the command side alone, with no consumer running
    // and no read-your-writes wait, is the most any consumer design could reach on this machine.
    await api.stopConsumers()
    const commandAlone = await measure('POST /v1/webhooks/endpoints, consumers stopped', api, createEndpoint, BENCH_PLAN.commandSeconds)
    const transferCreateAlone = await measure(
      'POST /v1/transfers, consumers stopped',
      api,
      transferTarget,
      TRANSFER_CREATE_BENCH_PLAN.seconds,
    )
    return {
      toy,
      health,
      query,
      command,
      hotStream,
      verificationSave,
      hotAccount,
      spreadHolds,
      transferCreate,
      balanceTransferCreate,
      agentTransferCreate,
      twoProcessHotStream,
      commandAlone,
      transferCreateAlone,
    }
  } finally {
    await stopChild(api)
    if (children.has(toyServer)) await stopChild(toyServer)
  }
}

type Compared = { name: string; server: ServerChild; target: HttpTarget }

/** Targets measured in turn, BENCH_PLAN.comparedRounds rounds of toySeconds / comparedRounds each, one result per target. */
async function measureInRounds(targets: readonly [Compared, Compared]): Promise<[Measured<HttpBenchResult>, Measured<HttpBenchResult>]> {
  const seconds = BENCH_PLAN.toySeconds / BENCH_PLAN.comparedRounds
  const rounds = targets.map((): Measured<HttpBenchResult>[] => [])
  for (let round = 0; round < BENCH_PLAN.comparedRounds; round++)
    for (const [i, { name, server, target }] of targets.entries())
      rounds[i]!.push(await measure(`${name} (round ${round + 1} of ${BENCH_PLAN.comparedRounds})`, server, target, seconds))
  return [combineRounds(rounds[0]!), combineRounds(rounds[1]!)]
}

/**
 * The same service with its projections asynchronous (PROJECTIONS=async), as on EventStoreDB, which cannot share a
 * transaction with Postgres: the read models trail the log and a command waits for them (read-your-writes).
 */
async function asyncPhase(db: BenchPostgres) {
  const api = await startChild('./serveApp.ts', {
    DATABASE_URL: await db.createDatabase('app_async'),
    LOG_LEVEL: 'silent',
    PROJECTIONS: 'async',
  })
  try {
    const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
    const createEndpoint: HttpTarget = { url: `${api.baseUrl}/v1/webhooks/endpoints`, method: 'POST', headers: auth, body: ENDPOINT_BODY }
    const command = await measure('POST /v1/webhooks/endpoints, projections async', api, createEndpoint, BENCH_PLAN.commandSeconds)
    const transferTarget = await transferCreateTarget(api, auth)
    const transferCreate = await measure('POST /v1/transfers, projections async', api, transferTarget, TRANSFER_CREATE_BENCH_PLAN.seconds)
    return { command, transferCreate }
  } finally {
    await stopChild(api)
  }
}

/** Verification data (phone, date of birth, tax id, address lines) saved on many customers in turn. */
async function measureVerificationSaves(api: ServerChild, auth: Record<string, string>) {
  const paths: string[] = []
  for (let i = 0; i < BENCH_PLAN.verificationCustomers; i++) {
    const response = await fetch(`${api.baseUrl}/v1/customers/individuals`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ada', lastName: `Lovelace ${i}`, email: `ada${i}@example.com` }),
    })
    if (response.status !== 201) throw new Error(`creating a customer answered ${response.status}: ${await response.text()}`)
    paths.push(`/v1/customers/${((await response.json()) as { id: string }).id}/verification`)
  }
  return measure(
    'POST /v1/customers/{id}/verification',
    api,
    { url: api.baseUrl, paths, method: 'POST', headers: auth, body: VERIFICATION_BODY },
    BENCH_PLAN.verificationSeconds,
  )
}

/**
 * One hot stream updated through two service processes on one database at once: each queues its
 * own commands on the stream, and they take turns through the stream lock. req/s add up; p50 and
 * p99 are the worse of the two processes' (their samples are not merged).
 */
async function measureHotStreamOnTwoProcesses(db: BenchPostgres, databaseUrl: string, first: ServerChild, auth: Record<string, string>) {
  const apiKey = String(first.ready.apiKey)
  const second = await startChild('./serveApp.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', BENCH_API_KEY: apiKey })
  try {
    const servers = [first, second]
    const hot = (await (
      await fetch(`${first.baseUrl}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: ENDPOINT_BODY,
      })
    ).json()) as { id: string }
    const target = (server: ServerChild): HttpTarget => ({
      url: `${server.baseUrl}/v1/webhooks/endpoints/${hot.id}`,
      method: 'PUT',
      headers: auth,
      body: HOT_STREAM_BODY,
    })
    const connections = BENCH_PLAN.connections / BENCH_PLAN.hotStreamProcesses
    const run = (durationSeconds: number) => Promise.all(servers.map((s) => runHttpBench(target(s), { connections, durationSeconds })))
    log(
      `PUT one hot stream on ${BENCH_PLAN.hotStreamProcesses} processes: warm-up ${BENCH_PLAN.warmUpSeconds} s, ` +
        `then ${BENCH_PLAN.hotStreamSeconds} s at ${connections} connections each`,
    )
    await run(BENCH_PLAN.warmUpSeconds)
    const cpu = measureCpu(first.pid, db.postmasterPid)
    const results = await run(BENCH_PLAN.hotStreamSeconds)
    const combined = combineRuns(results)
    if (combined.non2xx > 0) log(`two-process hot stream: status codes ${JSON.stringify(combined.statusCodes)}`)
    return { ...combined, cpu: cpu?.() }
  } finally {
    await stopChild(second)
  }
}

/** Simultaneous runs against several processes as one row: totals add up, latencies are the worst. */
function combineRuns(results: HttpBenchResult[]): HttpBenchResult {
  const seconds = Math.max(...results.map((r) => r.seconds))
  const requests = results.reduce((sum, r) => sum + r.requests, 0)
  const statusCodes: Record<string, number> = {}
  for (const r of results) for (const [code, count] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  return {
    connections: results.reduce((sum, r) => sum + r.connections, 0),
    seconds,
    requests,
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    latency: {
      count: results.reduce((sum, r) => sum + r.latency.count, 0),
      p50Ms: Math.max(...results.map((r) => r.latency.p50Ms)),
      p99Ms: Math.max(...results.map((r) => r.latency.p99Ms)),
      maxMs: Math.max(...results.map((r) => r.latency.maxMs)),
    },
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
  }
}

const OTHER_CPU_WARN_PCT = 15
function disturbed(results: { cpu: CpuShares | undefined }[]): string[] {
  const worst = Math.max(0, ...results.map((r) => r.cpu?.other ?? 0))
  return worst >= OTHER_CPU_WARN_PCT
    ? [`WARNING: other processes used up to ${pct(worst)}% of a core during a measurement; rerun on a quiet machine`]
    : []
}

/** Waits (bounded) until other processes use less than the warning threshold for one second. */
async function waitForQuiet(postmasterPid: number | undefined): Promise<CpuShares | undefined> {
  const until = Date.now() + BENCH_PLAN.quietWaitMs
  let shares: CpuShares | undefined
  do {
    const sample = measureCpu(undefined, postmasterPid)
    if (!sample) return undefined
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    shares = sample()
    if (shares.other < OTHER_CPU_WARN_PCT) return shares
    log(`other processes use ${pct(shares.other)}% of a core; waiting for a quieter moment`)
  } while (Date.now() < until)
  return shares
}

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')

const pct = (v: number) => v.toFixed(0)
function cpuCell(cpu: CpuShares | undefined, hasServer: boolean): string {
  if (!cpu) return '-'
  return `${hasServer ? pct(cpu.server) : '-'}/${pct(cpu.postgres)}/${pct(cpu.loadGenerator)}/${pct(cpu.other)}`
}

function appendRow(name: string, r: Measured<AppendBenchResult>, target?: { text: string; pass: boolean }): Cell[] {
  return [
    name,
    `${r.writers} writer${r.writers > 1 ? 's' : ''}`,
    `${formatNumber(r.appends)} appends`,
    `${r.seconds.toFixed(2)} s`,
    formatNumber(r.appendsPerSecond),
    formatNumber(r.eventsPerSecond),
    formatMs(r.latency.p50Ms),
    formatMs(r.latency.p99Ms),
    '-',
    cpuCell(r.cpu, false),
    target?.text,
    target ? verdict(target.pass) : undefined,
  ]
}

function httpRow(name: string, r: Measured<HttpBenchResult>, target?: { text: string; pass: boolean }): Cell[] {
  const clean = r.non2xx === 0 && r.errors === 0
  const text = target ? `${target.text}, non-2xx = 0` : 'non-2xx = 0'
  return [
    name,
    `${r.connections} conns`,
    `${formatNumber(r.requests)} reqs`,
    `${r.seconds.toFixed(1)} s`,
    formatNumber(r.requestsPerSecond),
    '-',
    formatMs(r.latency.p50Ms),
    formatMs(r.latency.p99Ms),
    `${r.non2xx}${r.errors ? ` (+${r.errors} err)` : ''}`,
    cpuCell(r.cpu, true),
    text,
    verdict(clean && (target?.pass ?? true)),
  ]
}

function webhookRow(r: WebhookBenchResult): Cell[] {
  return [
    `(d) webhooks, ${r.endpoints} endpoint${r.endpoints > 1 ? 's' : ''}, ${r.mode}`,
    r.mode === 'burst' ? `${WEBHOOK_BENCH_PLAN.burstWriters} writers` : '1 at a time',
    `${formatNumber(r.deliveries)} deliveries`,
    `${r.seconds.toFixed(2)} s`,
    formatNumber(r.deliveriesPerSecond),
    formatNumber(r.eventsPerSecond),
    formatMs(r.latency.p50Ms),
    formatMs(r.latency.p99Ms),
    '-',
    cpuCell(r.cpu, true),
    undefined,
    undefined,
  ]
}

/**
 * The most `row` could reach by `bound` (cpu.ts: every core busy on its measured work per request, or its server process
 * at one full core), against the toy.
 */
function boundRow(
  name: string,
  bound: typeof rateAtFullMachine | typeof rateAtFullServerCore,
  row: Measured<HttpBenchResult>,
  toy: Measured<HttpBenchResult>,
): Cell[] {
  const rate = bound(row.requestsPerSecond, row.cpu)
  return rate === undefined ? [name, ...Array<Cell>(11).fill(undefined)] : ratioRow(name, rate / toy.requestsPerSecond)
}

function ratioRow(name: string, value: number, target?: { text: string; pass: boolean }): Cell[] {
  return [
    name,
    undefined,
    undefined,
    undefined,
    `${value.toFixed(2)}×`,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    target?.text,
    target ? verdict(target.pass) : undefined,
  ]
}

function protectionLine(p: ProtectionBenchResult): string {
  const us = (v: number) => `${v.toFixed(1)} µs`
  return (
    `(f) data protection per request, in process: verification save event sealed ${us(p.verificationSealUs)}, opened ` +
    `${us(p.verificationOpenUs)}; endpoint event sealed ${us(p.endpointSealUs)}, opened ${us(p.endpointOpenUs)}; a new subject's data ` +
    `key ${p.keyCreationMs.toFixed(3)} ms (one INSERT, no WAL flush wait)`
  )
}

// ---- history: a hold on an account with a long history against one on a fresh account -----------

function historyRows(r: HistoryBenchResult): Cell[][] {
  const prior = `${formatNumber(r.priorPostings)} prior postings`
  const row = (name: string, latency: HistoryBenchResult['afterRestart']['long']): Cell[] => [
    name,
    '1 at a time',
    `${formatNumber(latency.count)} holds`,
    undefined,
    undefined,
    undefined,
    formatMs(latency.p50Ms),
    formatMs(latency.p99Ms),
    '-',
    '-',
    undefined,
    undefined,
  ]
  const ratio = r.afterRestart.p50Ratio
  return [
    row(`(g) hold, ${prior}, after a restart`, r.afterRestart.long),
    row('(g) hold, fresh account, after a restart', r.afterRestart.fresh),
    ratioRow(`ratio p50 ${prior} / fresh, after a restart`, ratio, {
      text: `<= ${HISTORY_TARGETS.maxLongToFreshP50Ratio}`,
      pass: ratio <= HISTORY_TARGETS.maxLongToFreshP50Ratio,
    }),
    row(`(g) hold, ${prior}, each in a fresh process`, r.coldEach.long),
    row('(g) hold, fresh account, each in a fresh process', r.coldEach.fresh),
    ratioRow(`ratio p50 ${prior} / fresh, each in a fresh process`, r.coldEach.p50Ratio),
  ]
}

function historyLine(r: HistoryBenchResult): string {
  return (
    `(g) history (${r.subject}): ${formatNumber(r.priorPostings)} postings appended in ${r.fillSeconds.toFixed(1)} s ` +
    `(${formatNumber(r.fillEventsPerSecond)} events/s, batches of 1,000), its snapshot taken from the events in ` +
    `${r.snapshotSeconds.toFixed(1)} s (${formatNumber(r.snapshotChars / 1024)} KiB); first hold after the restart ` +
    `${formatMs(r.afterRestart.firstLongMs)} ms on it, ${formatMs(r.afterRestart.firstFreshMs)} ms on the fresh account; ` +
    `${HISTORY_BENCH_PLAN.holds} holds per account, interleaved, through the command runtime in process`
  )
}

// ---- reads: the list routes against the read toy ----------------------------------------------

function readRows(r: ReadBenchResult): Cell[][] {
  const ratio = (list: Measured<HttpBenchResult>) => list.requestsPerSecond / r.toy.requestsPerSecond
  const target = (list: Measured<HttpBenchResult>) => ({
    text: `>= ${READ_TARGETS.listToToyRatio}`,
    pass: ratio(list) >= READ_TARGETS.listToToyRatio,
  })
  return [
    httpRow(`(e) query GET /v1/webhooks/endpoints, ${READ_BENCH_PLAN.pageSize}/page`, r.endpoints),
    httpRow(`(e) query GET /v1/customers, ${READ_BENCH_PLAN.pageSize}/page`, r.customers),
    httpRow(`(e) ceiling toy fastify+SELECT ${READ_BENCH_PLAN.pageSize} rows`, r.toy),
    ratioRow('ratio endpoint list / read toy req/s', ratio(r.endpoints), target(r.endpoints)),
    ratioRow('ratio customer list / read toy req/s', ratio(r.customers), target(r.customers)),
  ]
}

/** Server CPU per request: unlike req/s, it holds up when other work shares the machine. */
function readCpuLine(r: ReadBenchResult): string {
  const perRequest = (m: Measured<HttpBenchResult>) => (m.cpu ? `${((m.cpu.server * 10) / m.requestsPerSecond).toFixed(3)} ms` : '-')
  return (
    `(e) server CPU per request: endpoint list ${perRequest(r.endpoints)}, customer list ${perRequest(r.customers)}, read toy ` +
    `${perRequest(r.toy)}`
  )
}

// ---- account lists at 100 000 accounts --------------------------------------------------------

function accountListRows(r: AccountListBenchResult): Cell[][] {
  return r.lists.map((list) => httpRow(`(g) ${list.name}, ${list.items} items`, list))
}

// ---- transfer lists at 1 000 000 transfers ----------------------------------------------------

function transferListRows(r: TransferListBenchResult): Cell[][] {
  const T = TRANSFER_LIST_TARGETS
  return [
    httpRow('(h) ceiling read toy, same phase', r.toy),
    httpRow('(h) reference: the status=PENDING page without the service (transferToyServer.ts)', r.samePageToy),
    httpRow('(h) reference at 1 connection: the page itself, without the service', r.samePageToyOne),
    ...r.lists.flatMap((list) => {
      const ratio = list.many.requestsPerSecond / r.toy.requestsPerSecond
      const samePage = list.many.requestsPerSecond / r.samePageToy.requestsPerSecond
      return [
        httpRow(`(h) ${list.name}, ${list.items} items`, list.one, {
          text: `p99 < ${T.p99AtOneMs} ms`,
          pass: list.one.latency.p99Ms < T.p99AtOneMs,
        }),
        httpRow(`(h) ${list.name}, ${list.items} items`, list.many),
        ratioRow(`ratio ${list.name} / read toy req/s`, ratio, { text: `>= ${T.toReadToyRatio}`, pass: ratio >= T.toReadToyRatio }),
        ratioRow(`ratio ${list.name} / same-page reference req/s`, samePage),
      ]
    }),
  ]
}

/** Every row beside the command path's: webhooks, data protection, history, reads, account and transfer lists. */
async function otherPhases(db: BenchPostgres) {
  const children = {
    createDatabase: (purpose: string) => db.createDatabase(purpose),
    startChild,
    stopChild,
    postmasterPid: db.postmasterPid,
    log,
  }
  const webhooks = await runWebhookBench(children)
  log('data protection: codec and data key costs')
  const protection = await runProtectionBench(await db.createDatabase('protection'))
  log('history: holds on an account with a long history and on a fresh one')
  const history = await runHistoryBench({ databaseUrl: await db.createDatabase('history'), log })
  const reads = await runReadBench(children)
  const accountLists = await runAccountListBench(children)
  const transferLists = await runTransferListBench(children)
  const fx = await runFxBench(children)
  const rebuild = await rebuildPhase(db)
  return { webhooks, protection, history, reads, accountLists, transferLists, fx, rebuild }
}

type OtherPhases = Awaited<ReturnType<typeof otherPhases>>

function otherRows(o: OtherPhases): Cell[][] {
  return [
    ...o.webhooks.map(webhookRow),
    ...readRows(o.reads),
    ...accountListRows(o.accountLists),
    ...transferListRows(o.transferLists),
    ...historyRows(o.history),
    ...fxRows(o.fx),
    ...rebuildRows(o.rebuild),
  ]
}

// ---- FX: rates from the cache and computed anew, firm quotes ----------------------------------

function fxRows(r: FxBenchResult): Cell[][] {
  return [
    httpRow('(i) GET /v1/fx/rates, cached (one pair)', r.ratesCached),
    httpRow(`(i) GET /v1/fx/rates, uncached (${formatNumber(r.distinctRates)} pairs × pricings in turn)`, r.ratesUncached),
    httpRow('(i) POST /v1/fx/quotes (one organization, one customer)', r.quotes),
    acceptRow(r.accepts),
  ]
}

/** Concurrent accepts of one quote: the latency of every request, and whether each round made exactly one trade. */
function acceptRow(a: AcceptRace): Cell[] {
  const n = FX_BENCH_PLAN.acceptsPerRound
  return [
    `(i) POST /v1/fx/trades, ${n} concurrent accepts of one quote (${a.rounds} rounds)`,
    `${n} conns`,
    `${formatNumber(a.requests)} reqs`,
    `${a.seconds.toFixed(1)} s`,
    formatNumber(a.requests / Math.max(a.seconds, 1e-9)),
    '-',
    formatMs(a.latency.p50Ms),
    formatMs(a.latency.p99Ms),
    `${a.requests - (a.statusCodes['201'] ?? 0)} (410 by design)`,
    '-',
    `one trade a round: ${a.exactRounds}/${a.rounds}`,
    verdict(a.exactRounds === a.rounds),
  ]
}

function otherLines(o: OtherPhases): string[] {
  const { reads, accountLists, transferLists, protection, history } = o
  return [
    `(e) reads: ${READ_BENCH_PLAN.seededItems} items listed ${READ_BENCH_PLAN.pageSize} a page; the toy answers one indexed SELECT as ` +
      `JSON; measured in ` +
      `${READ_BENCH_PLAN.rounds} interleaved rounds of ${READ_BENCH_PLAN.secondsPerRound} s (req/s over all rounds, p50/p99/cpu the ` +
      `median round)`,
    readCpuLine(reads),
    `(g) account lists: one organization with ${formatNumber(ACCOUNT_SEED_PLAN.accounts)} accounts ` +
      `(${formatNumber(ACCOUNT_SEED_PLAN.customers)} customers; rows written directly in ${accountLists.seedSeconds.toFixed(0)} s, ` +
      `see bench/accountListSeed.ts), ${ACCOUNT_LIST_BENCH_PLAN.connections} connections, ` +
      `${ACCOUNT_LIST_BENCH_PLAN.secondsPerTarget} s each; plans in docs/explain-accounts.md`,
    `(h) transfer lists: ${formatNumber(TRANSFER_SEED_PLAN.transfers)} transfers, 90% in one organization ` +
      `(${formatNumber(TRANSFER_SEED_PLAN.customers)} customers; rows written directly in ${transferLists.seedSeconds.toFixed(0)} s, ` +
      'see bench/transferListSeed.ts), 50 a page; each list at 1 connection ' +
      `(${TRANSFER_LIST_BENCH_PLAN.secondsAtOne} s) and at ${TRANSFER_LIST_BENCH_PLAN.connections} (${TRANSFER_LIST_BENCH_PLAN.rounds} ` +
      `rounds of ${TRANSFER_LIST_BENCH_PLAN.secondsPerRound} s interleaved with the read toy); plans in docs/explain-transfers.md`,
    protectionLine(protection),
    historyLine(history),
    `(i) FX: ${FX_BENCH_PLAN.connections} connections, ${FX_BENCH_PLAN.seconds} s each; rates are cached 30 s per organization, customer ` +
      `and pair (a hit reads no database); ${FX_BENCH_PLAN.pricedCustomers} customers priced on their own; every quote takes capacity ` +
      "on its organization's one FX stream (decided in turn) and is appended on its own, with its expiry timer to follow",
    ...disturbed(o.webhooks),
    ...disturbed([reads.endpoints, reads.customers, reads.toy]),
    ...disturbed(accountLists.lists),
    ...disturbed([transferLists.toy, ...transferLists.lists.flatMap((l) => [l.one, l.many])]),
    ...disturbed([o.fx.ratesCached, o.fx.ratesUncached, o.fx.quotes]),
    ...rebuildLines(o.rebuild),
  ]
}

// ---- rebuild: a projection rebuilt over a million events ---------------------------------------

async function rebuildPhase(db: BenchPostgres): Promise<RebuildBenchResult> {
  log('rebuild: a projection rebuilt over a million events')
  return runRebuildBench({ databaseUrl: await db.createDatabase('rebuild'), postmasterPid: db.postmasterPid, log })
}

function rebuildRows(r: RebuildBenchResult): Cell[][] {
  const row = (name: string, run: RebuildRun, target?: { text: string; pass: boolean }): Cell[] => [
    name,
    '1 process',
    `${formatNumber(run.events)} events`,
    `${run.seconds.toFixed(1)} s`,
    '-',
    formatNumber(run.eventsPerSecond),
    '-',
    '-',
    '-',
    cpuCell(run.cpu, false),
    target?.text,
    target ? verdict(target.pass) : undefined,
  ]
  const bound = rateAtFullMachine(r.rebuild.eventsPerSecond, r.rebuild.cpu)
  const target = REBUILD_TARGETS.eventsPerSecond
  return [
    row(`(j) projections rebuild ${r.projection}, every event handled`, r.rebuild, {
      text: `>= ${formatNumber(target)} events/s`,
      pass: r.rebuild.eventsPerSecond >= target,
    }),
    row('(j) ceiling: $all read alone (the adapter, batches of 1,000)', r.read),
    row('(j) ceiling: $all read, opened and parsed (a rebuild applying nothing)', r.decoded),
    ['(j) bound: the rebuild at full use of the cores', ...Array<Cell>(4).fill(undefined), bound ? formatNumber(bound) : '-'],
  ]
}

function rebuildLines(r: RebuildBenchResult): string[] {
  const p = REBUILD_BENCH_PLAN
  return [
    `(j) rebuild: ${formatNumber(r.events)} events of ${formatNumber(p.endpoints)} webhook endpoints (each created, then updated ` +
      `${p.eventsPerEndpoint - 1} times in ${p.appendsPerEndpoint} rounds over the log) appended in ${r.seedSeconds.toFixed(0)} s; ` +
      'rebuildProjection in this process (gen = its CPU) into fresh tables, then the switch; bound: events/s x cores / (pg + gen cpu%)',
    ...disturbed([r.read, r.decoded, r.rebuild]),
  ]
}

type Settings = { version: string; fsync: string; synchronous_commit: string } | undefined

/** The machine, the database and the load generator: the first lines of every table. */
function headerLines(settings: Settings, background: Awaited<ReturnType<typeof waitForQuiet>>): string[] {
  const cpus = os.cpus()
  return [
    '',
    `environment: node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ` +
      `${os.release()}, ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM`,
    `postgres: ${settings?.version ?? '?'} (${database?.description ?? '?'}), fsync=${settings?.fsync ?? '?'}, ` +
      `synchronous_commit=${settings?.synchronous_commit ?? '?'}`,
    `http: autocannon in the bench process, each server in its own child process; ${BENCH_PLAN.connections} connections, ` +
      `${BENCH_PLAN.warmUpSeconds} s warm-up before each run; latency = per-response time of 2xx responses`,
    '',
    `cpu: other processes used ${background ? `${pct(background.other)}% of one core` : 'unknown'} in the second before the run (the ` +
      `machine may be shared)`,
    '',
  ]
}

const CPU_LEGEND = [
  'cpu%: % of one core during the measured run: srv = server process, pg = our PostgreSQL, gen = this process (autocannon, or the',
  `      appending client), other = everything else on the machine (>= ${OTHER_CPU_WARN_PCT}% means the row was disturbed by other work)`,
]

const TABLE_HEADERS = [
  'benchmark',
  'load',
  'total',
  'time',
  'ops/s (req/s)',
  'events/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  'cpu% srv/pg/gen/other',
  'target',
  'verdict',
]

async function integrityPhase(db: BenchPostgres): Promise<IntegrityBenchResult> {
  return runIntegrityBench({ createDatabase: (purpose) => db.createDatabase(purpose), startChild, stopChild, measure, log }, ENDPOINT_BODY)
}

function integrityRows(r: IntegrityBenchResult): Cell[][] {
  const ratios = chainRatios(r)
  const target = { text: `>= ${INTEGRITY_TARGETS.chainedToUnchainedRatio}`, min: INTEGRITY_TARGETS.chainedToUnchainedRatio }
  const verifyRow = (name: string, v: VerifyPass): Cell[] => [
    name,
    '1 reader',
    `${formatNumber(v.events)} events`,
    `${v.seconds.toFixed(2)} s`,
    undefined,
    formatNumber(v.eventsPerSecond),
    ...Array<Cell>(6).fill(undefined),
  ]
  return [
    appendRow(`(i) appends with the hash chain, ${r.appends.chained.length} rounds`, {
      ...combineAppendRounds(r.appends.chained),
      cpu: undefined,
    }),
    appendRow(`(i) appends without the chain, ${r.appends.unchained.length} rounds`, {
      ...combineAppendRounds(r.appends.unchained),
      cpu: undefined,
    }),
    ratioRow(
      `(i) ratio appends chained / unchained (rounds ${ratios.appendsPerRound.map((x) => x.toFixed(2)).join(', ')})`,
      ratios.appends,
      {
        text: target.text,
        pass: ratios.appends >= target.min,
      },
    ),
    httpRow('(i) command POST /v1/webhooks/endpoints with the chain', r.command.chained),
    httpRow('(i) command POST /v1/webhooks/endpoints without the chain', r.command.unchained),
    ratioRow('(i) ratio command chained / unchained req/s', ratios.command, { text: target.text, pass: ratios.command >= target.min }),
    verifyRow('(i) audit verify: hash chain', r.verifyChain),
    verifyRow('(i) audit verify --checkpoint: chain and Merkle root', r.verifyChainAndTree),
  ]
}

const INTEGRITY_LINES = [
  '(i) hash chain: the same appends (20 writers) and the same command path, with the chain and without it (the store writing no',
  `    content hash, so nothing links), ${INTEGRITY_BENCH_PLAN.rounds} rounds alternating; audit verify: one pass over the chained`,
  "    store's events as stored (chain recomputed; with a checkpoint, the RFC 6962 root too)",
]

type Background = Awaited<ReturnType<typeof waitForQuiet>>

/** A `BENCH_ONLY` run of one phase: the header, its rows, its notes and the run time. */
function printPhase(startedAt: number, settings: Settings, background: Background, rows: Cell[][], notes: string[]): void {
  process.stdout.write(
    [
      ...headerLines(settings, background),
      formatTable(TABLE_HEADERS, rows),
      '',
      ...notes,
      `total run time ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
      '',
    ].join('\n'),
  )
}

/** `BENCH_ONLY=rebuild`: the projection rebuild rows alone. */
async function rebuildOnly(startedAt: number, settings: Settings, background: Background) {
  const result = await rebuildPhase(database!)
  printPhase(startedAt, settings, background, rebuildRows(result), [...CPU_LEGEND, ...rebuildLines(result)])
}

/** `BENCH_ONLY=integrity`: the hash chain's cost and the audit checks alone. */
async function integrityOnly(startedAt: number, settings: Settings, background: Background) {
  const result = await integrityPhase(database!)
  printPhase(startedAt, settings, background, integrityRows(result), [
    ...INTEGRITY_LINES,
    ...disturbed([result.command.chained, result.command.unchained]),
  ])
}

async function main(): Promise<void> {
  const startedAt = Date.now()
  database = await openBenchPostgres()
  log(`PostgreSQL: ${database.description}`)
  const background = await waitForQuiet(database.postmasterPid)
  const [settings] = await database.query<{ version: string; fsync: string; synchronous_commit: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS " +
      'synchronous_commit',
  )

  if (ONLY === 'integrity') return integrityOnly(startedAt, settings, background)
  if (ONLY === 'rebuild') return rebuildOnly(startedAt, settings, background)
  const appends = await appendPhase(database)
  const api = await apiPhase(database)
  const asyncApi = await asyncPhase(database)
  const { toy } = api
  const others = ONLY === undefined ? await otherPhases(database) : undefined
  const integrity = ONLY === undefined ? await integrityPhase(database) : undefined

  const commandRatio = api.command.requestsPerSecond / toy.requestsPerSecond
  const rows: Cell[][] = [
    appendRow('(a) appendToStream, sequential', appends.one),
    appendRow('(a) appendToStream, concurrent', appends.many, {
      text: `>= ${formatNumber(TARGETS.concurrentEventsPerSecond)} events/s`,
      pass: appends.many.eventsPerSecond >= TARGETS.concurrentEventsPerSecond,
    }),
    httpRow('(b) command POST /v1/webhooks/endpoints', api.command, {
      text: `p99 < ${TARGETS.commandP99Ms} ms`,
      pass: api.command.latency.p99Ms < TARGETS.commandP99Ms,
    }),
    httpRow('(b) query GET /v1/webhooks/endpoints', api.query),
    httpRow('(b) command POST verification save (sealed fields)', api.verificationSave),
    httpRow('(b) hot stream PUT one endpoint', api.hotStream),
    httpRow(`(b) hot stream PUT one endpoint, ${BENCH_PLAN.hotStreamProcesses} processes`, api.twoProcessHotStream),
    httpRow('(g) holds on one hot account', api.hotAccount),
    httpRow(`(g) holds on ${HOLDS_BENCH_PLAN.accounts} accounts`, api.spreadHolds),
    httpRow('(h) transfers created POST /v1/transfers', api.transferCreate),
    // An agent's: balance-funded (a hold on its one account), reserved on its one spend stream; beside it the platform key's.
    httpRow('(h) transfers created from one balance account, platform key', api.balanceTransferCreate),
    httpRow('(h) agent-checked transfers created from one balance account, agent key', api.agentTransferCreate),
    httpRow('(b) ceiling: command POST, consumers stopped', api.commandAlone),
    httpRow('(h) ceiling: transfers created, consumers stopped', api.transferCreateAlone),
    httpRow('(c) ceiling GET /health', api.health),
    httpRow('(c) ceiling toy fastify+zod+INSERT', toy),
    ratioRow('ratio command / toy req/s', commandRatio, {
      text: `>= ${TARGETS.commandToToyRatio}`,
      pass: commandRatio >= TARGETS.commandToToyRatio,
    }),
    ratioRow('ratio query / toy req/s', api.query.requestsPerSecond / toy.requestsPerSecond),
    ratioRow('(h) ratio transfers created / toy req/s', api.transferCreate.requestsPerSecond / toy.requestsPerSecond, {
      text: `>= ${TRANSFER_CREATE_TARGETS.createToToyRatio}`,
      pass: api.transferCreate.requestsPerSecond / toy.requestsPerSecond >= TRANSFER_CREATE_TARGETS.createToToyRatio,
    }),
    boundRow('(b) bound: command at full use of the cores / toy', rateAtFullMachine, api.command, toy),
    boundRow('(h) bound: transfers created at full use of the cores / toy', rateAtFullMachine, api.transferCreate, toy),
    boundRow('(b) bound: command with its server process at one full core / toy', rateAtFullServerCore, api.command, toy),
    boundRow('(h) bound: transfers created with the server at one full core / toy', rateAtFullServerCore, api.transferCreate, toy),
    ratioRow('(b) ratio command, consumers stopped / toy req/s', api.commandAlone.requestsPerSecond / toy.requestsPerSecond),
    ratioRow(
      '(h) ratio transfers created, consumers stopped / toy req/s',
      api.transferCreateAlone.requestsPerSecond / toy.requestsPerSecond,
    ),
    ratioRow('ratio verification save / toy req/s', api.verificationSave.requestsPerSecond / toy.requestsPerSecond),
    ratioRow('ratio command / GET /health req/s', api.command.requestsPerSecond / api.health.requestsPerSecond),
    ratioRow('ratio 20 writers / 1 writer events/s', appends.many.eventsPerSecond / appends.one.eventsPerSecond),
    httpRow('(b) command POST /v1/webhooks/endpoints, projections async', asyncApi.command),
    httpRow('(h) transfers created POST /v1/transfers, projections async', asyncApi.transferCreate),
    ratioRow('(b) ratio command, projections async / toy req/s', asyncApi.command.requestsPerSecond / toy.requestsPerSecond),
    ratioRow(
      '(h) ratio transfers created, projections async / toy req/s',
      asyncApi.transferCreate.requestsPerSecond / toy.requestsPerSecond,
    ),
    ...(others ? otherRows(others) : []),
    ...(integrity ? integrityRows(integrity) : []),
  ]
  process.stdout.write(
    [
      ...headerLines(settings, background),
      formatTable(TABLE_HEADERS, rows),
      '',
      ...CPU_LEGEND,
      '(d) webhooks: events appended to the store, delivered by the service (subscriber + dispatcher, default tuning) to a local receiver;',
      "    ops/s = deliveries/s, p50/p99 = event append to the receiver's 200; sequential = one event at a time, burst = " +
        `${WEBHOOK_BENCH_PLAN.burstWriters} concurrent writers`,
      `(b) ${BENCH_PLAN.hotStreamProcesses} processes: two service processes on one database, ` +
        `${BENCH_PLAN.connections / BENCH_PLAN.hotStreamProcesses} ` +
        "connections on each; req/s summed, p50/p99 the worse process's; cpu srv = the first process, other includes the second",
      '(h) transfers: an APPROVED sender creates deposit-funded ACH transfers to its bank account (PENDING, fundingNeeded)',
      "(b)(h) projections: inline (the default on Postgres: read models written in the append's transaction, no wait) unless the row",
      '    says async (PROJECTIONS=async, as on EventStoreDB: projectors on the consumer runtime, each command waits for its rows)',
      '(b)(h) ceiling, consumers stopped: the same server after its projectors, workflows and webhook subscriber stopped, answering',
      '    without the read-your-writes wait: the command side alone, the most any consumer design reaches on this machine',
      '(b)(h) bound: req/s x cores / (srv + pg + gen cpu%) of the row, over the toy: the ratio reachable with both cores busy on the',
      '    same work per request (the toy itself uses most of the machine); a target above it needs less work, not another place for it;',
      '    at one full core: req/s x 100 / srv cpu% (a Node server runs its JavaScript on one thread): the most one process reaches',
      `(g) holds: ${HOLDS_BENCH_PLAN.accounts} funded USD balance accounts; each request holds 0.01 USD on one account (hot: always ` +
        'the same one, decided in turn on its stream; spread: the accounts in turn)',
      ...(others ? otherLines(others) : []),
      ...(integrity ? INTEGRITY_LINES : []),
      ...disturbed([appends.one, appends.many, api.command, api.query, api.verificationSave, api.hotStream, api.health, toy]),
      ...disturbed([api.commandAlone, api.transferCreateAlone, asyncApi.command, asyncApi.transferCreate]),
      `total run time ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
      '',
    ].join('\n'),
  )
}

try {
  await main()
  await cleanUp()
  process.exit(0)
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  killAllChildren()
  await cleanUp().catch(() => undefined)
  process.exit(1)
}
