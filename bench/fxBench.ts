// FX through HTTP: indicative rates served from the 30-second cache (one pair, again and again) and
// computed anew (every request a pair and customer pricing not asked for yet), firm quotes created
// (each priced, taking capacity on the organization's FX stream, appended with its expiry timer to
// follow), and rounds of 20 concurrent accepts of one quote (exactly one trade each round).
// `npm run bench` runs it as one phase; `tsx bench/fxBench.ts` runs it alone.
import { pathToFileURL } from 'node:url'
import { ALL_CORRIDORS } from '../domain/fx/corridors.js'
import { flatPair } from '../domain/fx/pair.js'
import type { ServerChild } from './child.js'
import { type CpuShares, measureCpu } from './cpu.js'
import { type HttpBenchResult, type HttpTarget, runHttpBench } from './httpBench.js'
import { approvedCustomer } from './transferCreateBench.js'
import type { PhaseDeps } from './phaseDeps.js'

export const FX_BENCH_PLAN = {
  connections: 50,
  warmUpSeconds: 1,
  seconds: 10,
  /** Customers priced on their own: with every pair, the distinct rates the uncached row asks for. */
  pricedCustomers: 100,
  /** Rounds of concurrent accepts, each of one fresh quote by its own customer (one active trade per customer and asset). */
  acceptRounds: 20,
  acceptsPerRound: 20,
} as const

/** Rounds of `acceptsPerRound` concurrent POST /v1/fx/trades of one quote: each request's latency, and what each round made. */
export type AcceptRace = {
  rounds: number
  requests: number
  seconds: number
  latency: { p50Ms: number; p99Ms: number; maxMs: number }
  /** Rounds that made exactly one trade (201) and refused the rest 410: all of them, or the row fails. */
  exactRounds: number
  statusCodes: Record<string, number>
}

export type FxBenchDeps = PhaseDeps

type Measured = HttpBenchResult & { cpu: CpuShares | undefined }
export type FxBenchResult = { ratesCached: Measured; ratesUncached: Measured; quotes: Measured; distinctRates: number; accepts: AcceptRace }

const STABLE = { sourceCurrency: 'USDC', sourceNetwork: 'ETHEREUM', destinationCurrency: 'USDT', destinationNetwork: 'TRON' }

async function send(api: ServerChild, auth: Record<string, string>, method: 'PUT' | 'POST', path: string, body: object): Promise<unknown> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`)
  return response.json()
}

async function measure(deps: FxBenchDeps, name: string, server: ServerChild, target: HttpTarget): Promise<Measured> {
  const options = { connections: FX_BENCH_PLAN.connections }
  deps.log(`${name}: warm-up ${FX_BENCH_PLAN.warmUpSeconds} s, then ${FX_BENCH_PLAN.seconds} s at ${options.connections} connections`)
  await runHttpBench(target, { ...options, durationSeconds: FX_BENCH_PLAN.warmUpSeconds })
  const cpu = measureCpu(server.pid, deps.postmasterPid)
  const result = await runHttpBench(target, { ...options, durationSeconds: FX_BENCH_PLAN.seconds })
  if (result.non2xx > 0) deps.log(`${name}: status codes ${JSON.stringify(result.statusCodes)}`)
  return { ...result, cpu: cpu?.() }
}

export async function runFxBench(deps: FxBenchDeps): Promise<FxBenchResult> {
  const api = await deps.startChild('./serveApp.ts', { DATABASE_URL: await deps.createDatabase('fx'), LOG_LEVEL: 'silent' })
  try {
    const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
    // Fiat pairs on, and capacity far beyond what the run takes ($25 a quote).
    await send(api, auth, 'PUT', '/v1/sandbox/fx/settings', { fiatPairsEnabled: true, sandboxProvider: { capacityUsd: '1000000000' } })
    deps.log(`fx: ${FX_BENCH_PLAN.pricedCustomers} customers priced on their own`)
    const customers: string[] = []
    for (let i = 0; i < FX_BENCH_PLAN.pricedCustomers; i++) {
      const { id } = (await send(api, auth, 'POST', '/v1/customers/individuals', {
        firstName: 'Ada',
        lastName: `Rates ${i}`,
        email: `ada.${i}@example.com`,
      })) as { id: string }
      await send(api, auth, 'PUT', `/v1/sandbox/fx/customers/${id}/pricing`, { spreadBps: i + 1 })
      customers.push(id)
    }
    // Pair by pair, each customer in turn: consecutive requests never share a cache key.
    const paths = ALL_CORRIDORS.flatMap((pair) =>
      customers.map(
        (customerId) => `/v1/fx/rates?${new URLSearchParams({ ...flatPair(pair), onBehalfOf: customerId } as Record<string, string>)}`,
      ),
    )
    const cached = `/v1/fx/rates?${new URLSearchParams(STABLE)}`
    const ratesCached = await measure(deps, 'GET /v1/fx/rates (cached)', api, {
      url: `${api.baseUrl}${cached}`,
      method: 'GET',
      headers: auth,
    })
    const ratesUncached = await measure(deps, 'GET /v1/fx/rates (each one new)', api, {
      url: api.baseUrl,
      paths,
      method: 'GET',
      headers: auth,
    })
    const trader = await approvedCustomer(api, auth, ['STABLECOIN_PAYIN', 'STABLECOIN_PAYOUT', 'STABLECOIN_SWAPS'])
    const quotes = await measure(deps, 'POST /v1/fx/quotes', api, {
      url: `${api.baseUrl}/v1/fx/quotes`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...STABLE, customerId: trader, sourceAmount: '25000000' }),
    })
    deps.log(`POST /v1/fx/trades: ${FX_BENCH_PLAN.acceptRounds} rounds of ${FX_BENCH_PLAN.acceptsPerRound} concurrent accepts of one quote`)
    const accepts = await raceAccepts(api, auth)
    return { ratesCached, ratesUncached, quotes, distinctRates: paths.length, accepts }
  } finally {
    await deps.stopChild(api)
  }
}

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

/** Each round: a customer with a bank account and a fresh quote (USDC on Ethereum to USD on ACH), then the race. */
async function raceAccepts(api: ServerChild, auth: Record<string, string>): Promise<AcceptRace> {
  const latencies: number[] = []
  const statusCodes: Record<string, number> = {}
  let exactRounds = 0
  let racing = 0
  for (let round = 0; round < FX_BENCH_PLAN.acceptRounds; round++) {
    const customerId = await approvedCustomer(api, auth, ['STABLECOIN_PAYIN', 'USD_ACH_PAYOUT'])
    const bank = (await send(api, auth, 'POST', '/v1/external-bank-accounts', {
      customerId,
      accountOwnerName: 'Ada Lovelace',
      accountNumber: '000123456789',
      routingNumber: '021000021',
    })) as { id: string }
    const quote = (await send(api, auth, 'POST', '/v1/fx/quotes', {
      customerId,
      sourceCurrency: 'USDC',
      sourceNetwork: 'ETHEREUM',
      destinationCurrency: 'USD',
      destinationRail: 'ACH',
      sourceAmount: '25000000',
    })) as { id: string }
    const body = JSON.stringify({ quoteId: quote.id, destinationAccountId: bank.id })
    const started = performance.now()
    const statuses = await Promise.all(
      Array.from({ length: FX_BENCH_PLAN.acceptsPerRound }, async () => {
        const sent = performance.now()
        const response = await fetch(`${api.baseUrl}/v1/fx/trades`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        })
        await response.arrayBuffer()
        latencies.push(performance.now() - sent)
        return response.status
      }),
    )
    racing += performance.now() - started
    for (const status of statuses) statusCodes[status] = (statusCodes[status] ?? 0) + 1
    if (statuses.filter((s) => s === 201).length === 1 && statuses.filter((s) => s === 410).length === statuses.length - 1) exactRounds++
  }
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    rounds: FX_BENCH_PLAN.acceptRounds,
    requests: latencies.length,
    seconds: racing / 1000,
    latency: { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0 },
    exactRounds,
    statusCodes,
  }
}

// ---- alone: `tsx bench/fxBench.ts` -------------------------------------------------------------

async function runAlone(): Promise<void> {
  const { openBenchPostgres } = await import('./database.js')
  const { startServerChild, killAllChildren } = await import('./child.js')
  const database = await openBenchPostgres()
  const log = (message: string) => process.stderr.write(`fx bench: ${message}\n`)
  try {
    const result = await runFxBench({
      createDatabase: (purpose) => database.createDatabase(purpose),
      startChild: startServerChild,
      stopChild: (child) => child.stop(),
      postmasterPid: database.postmasterPid,
      log,
    })
    const rows = { 'rates cached': result.ratesCached, 'rates uncached': result.ratesUncached, quotes: result.quotes }
    for (const [name, r] of Object.entries(rows)) {
      const cpu = r.cpu ? [r.cpu.server, r.cpu.postgres, r.cpu.loadGenerator, r.cpu.other].map((v) => v.toFixed(0)).join('/') : '-'
      process.stdout.write(
        `${name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latency.p50Ms.toFixed(2)} ms, p99 ${r.latency.p99Ms.toFixed(2)} ms, ` +
          `non-2xx ${r.non2xx}, cpu server/pg/load/other ${cpu}\n`,
      )
    }
    const a = result.accepts
    process.stdout.write(
      `accepts: ${a.rounds} rounds × ${FX_BENCH_PLAN.acceptsPerRound} concurrent, p50 ${a.latency.p50Ms.toFixed(2)} ms, ` +
        `p99 ${a.latency.p99Ms.toFixed(2)} ms, max ${a.latency.maxMs.toFixed(2)} ms, exactly one trade in ${a.exactRounds}/${a.rounds} ` +
        `rounds, status codes ${JSON.stringify(a.statusCodes)}\n`,
    )
  } finally {
    killAllChildren()
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone()
