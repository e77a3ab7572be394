// The read path: the webhook endpoint list and the customer list, 50-row pages, against their
// ceiling, a fastify + one indexed SELECT toy (readToyServer.ts), each server in its own child.
// The three are measured in interleaved rounds (toy, endpoints, customers, again), so that other
// work on a shared machine weighs on each about equally and the ratios stay meaningful.
// `npm run bench` runs it as one phase; `tsx bench/readBench.ts` runs it alone and prints its rows.
import { pathToFileURL } from 'node:url'
import type { ServerChild } from './child.js'
import { measureCpu } from './cpu.js'
import { type HttpTarget, runHttpBench } from './httpBench.js'
import { type RoundResult, combineRounds } from './rounds.js'
import { READ_TOY_LIMITS } from './readToyServer.js'
import type { PhaseDeps } from './phaseDeps.js'

export const READ_BENCH_PLAN = {
  /** More than one page, so every page has has_more and a next link, like a real list. */
  seededItems: 60,
  seedConcurrency: 10,
  pageSize: READ_TOY_LIMITS.pageSize,
  connections: 50,
  warmUpSeconds: 2,
  rounds: 4,
  secondsPerRound: 3,
} as const

export const READ_TARGETS = { listToToyRatio: 0.8 } as const

export type ReadBenchDeps = PhaseDeps

export type ReadMeasurement = RoundResult
export type ReadBenchResult = { endpoints: ReadMeasurement; customers: ReadMeasurement; toy: ReadMeasurement }

const ENDPOINT_BODY = JSON.stringify({
  url: 'https://hooks.example.com/payments',
  description: 'benchmark endpoint',
  filterTypes: ['transfer.completed', 'transfer.failed'],
  metadata: { team: 'bench' },
})
const customerBody = (i: number) =>
  JSON.stringify({
    firstName: 'Ada',
    lastName: `Reader ${i}`,
    email: `ada.${i}@example.com`,
    countryCode: 'GB',
    metadata: { ref: `bench-${i}` },
  })

type Target = { name: string; server: ServerChild; target: HttpTarget }

async function measureInRounds(deps: ReadBenchDeps, targets: Target[]): Promise<ReadMeasurement[]> {
  const options = { connections: READ_BENCH_PLAN.connections }
  for (const { name, target } of targets) {
    deps.log(`${name}: warm-up ${READ_BENCH_PLAN.warmUpSeconds} s`)
    await runHttpBench(target, { ...options, durationSeconds: READ_BENCH_PLAN.warmUpSeconds })
  }
  deps.log(
    `reads: ${READ_BENCH_PLAN.rounds} rounds of ${READ_BENCH_PLAN.secondsPerRound} s each at ${READ_BENCH_PLAN.connections} connections: ` +
      `${targets.map((t) => t.name).join(', ')}`,
  )
  const rounds: ReadMeasurement[][] = targets.map(() => [])
  for (let round = 0; round < READ_BENCH_PLAN.rounds; round++) {
    for (const [i, { server, target }] of targets.entries()) {
      const cpu = measureCpu(server.pid, deps.postmasterPid)
      const result = await runHttpBench(target, { ...options, durationSeconds: READ_BENCH_PLAN.secondsPerRound })
      rounds[i]!.push({ ...result, cpu: cpu?.() })
    }
  }
  return rounds.map((r, i) => {
    const combined = combineRounds(r)
    if (combined.non2xx > 0) deps.log(`${targets[i]!.name}: status codes ${JSON.stringify(combined.statusCodes)}`)
    return combined
  })
}

async function seed(createUrl: string, listUrl: string, headers: Record<string, string>, body: (i: number) => string): Promise<void> {
  for (let start = 0; start < READ_BENCH_PLAN.seededItems; start += READ_BENCH_PLAN.seedConcurrency) {
    await Promise.all(
      Array.from({ length: Math.min(READ_BENCH_PLAN.seedConcurrency, READ_BENCH_PLAN.seededItems - start) }, async (_, k) => {
        const response = await fetch(createUrl, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: body(start + k),
        })
        if (response.status !== 201) throw new Error(`seeding ${createUrl} answered ${response.status}: ${await response.text()}`)
      }),
    )
  }
  const page = (await (await fetch(`${listUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, { headers })).json()) as { data: unknown[] }
  if (page.data.length !== READ_BENCH_PLAN.pageSize)
    throw new Error(`GET ${listUrl} listed ${page.data.length} items, not ${READ_BENCH_PLAN.pageSize}`)
}

export async function runReadBench(deps: ReadBenchDeps): Promise<ReadBenchResult> {
  const toy = await deps.startChild('./readToyServer.ts', { DATABASE_URL: await deps.createDatabase('read_toy') })
  try {
    const api = await deps.startChild('./serveApp.ts', { DATABASE_URL: await deps.createDatabase('reads'), LOG_LEVEL: 'silent' })
    try {
      const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
      const endpointsUrl = `${api.baseUrl}/v1/webhooks/endpoints`
      const customersUrl = `${api.baseUrl}/v1/customers`
      await seed(endpointsUrl, endpointsUrl, auth, () => ENDPOINT_BODY)
      await seed(`${customersUrl}/individuals`, customersUrl, auth, customerBody)
      const [toyResult, endpoints, customers] = await measureInRounds(deps, [
        { name: `read toy GET (${READ_BENCH_PLAN.pageSize} rows)`, server: toy, target: { url: `${toy.baseUrl}/toy/list`, method: 'GET' } },
        {
          name: `GET /v1/webhooks/endpoints (${READ_BENCH_PLAN.pageSize}/page)`,
          server: api,
          target: { url: `${endpointsUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, method: 'GET', headers: auth },
        },
        {
          name: `GET /v1/customers (${READ_BENCH_PLAN.pageSize}/page)`,
          server: api,
          target: { url: `${customersUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, method: 'GET', headers: auth },
        },
      ])
      return { endpoints: endpoints!, customers: customers!, toy: toyResult! }
    } finally {
      await deps.stopChild(api)
    }
  } finally {
    await deps.stopChild(toy)
  }
}

// ---- alone: `tsx bench/readBench.ts` ----------------------------------------------------------

async function runAlone(): Promise<void> {
  const { openBenchPostgres } = await import('./database.js')
  const { startServerChild, killAllChildren } = await import('./child.js')
  const database = await openBenchPostgres()
  const log = (message: string) => process.stderr.write(`read bench: ${message}\n`)
  try {
    const result = await runReadBench({
      createDatabase: (purpose) => database.createDatabase(purpose),
      startChild: startServerChild,
      stopChild: (child) => child.stop(),
      postmasterPid: database.postmasterPid,
      log,
    })
    for (const [name, r] of Object.entries(result)) {
      const cpu = r.cpu
        ? ` cpu srv/pg/gen/other ${[r.cpu.server, r.cpu.postgres, r.cpu.loadGenerator, r.cpu.other].map((v) => v.toFixed(0)).join('/')}`
        : ''
      process.stdout.write(
        `${name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latency.p50Ms.toFixed(2)} ms, p99 ${r.latency.p99Ms.toFixed(2)} ms, ` +
          `non-2xx ${r.non2xx}${cpu}\n`,
      )
    }
    for (const name of ['endpoints', 'customers'] as const) {
      process.stdout.write(`ratio ${name} / toy: ${(result[name].requestsPerSecond / result.toy.requestsPerSecond).toFixed(2)}\n`)
    }
  } finally {
    killAllChildren()
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone()
