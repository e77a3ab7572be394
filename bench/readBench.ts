// The read path: the webhook endpoint list and the customer list, 50-row pages, against their
// ceiling, a fastify + one indexed SELECT toy (readToyServer.ts), each server in its own child.
// `npm run bench` runs it as one phase; `tsx bench/readBench.ts` runs it alone and prints its rows.
import { pathToFileURL } from 'node:url'
import type { ServerChild } from './child.js'
import { type CpuShares, measureCpu } from './cpu.js'
import { type HttpBenchResult, type HttpTarget, runHttpBench } from './httpBench.js'
import { READ_TOY_LIMITS } from './readToyServer.js'

export const READ_BENCH_PLAN = {
  /** More than one page, so every page has has_more and a next link, like a real list. */
  seededItems: 60,
  seedConcurrency: 10,
  pageSize: READ_TOY_LIMITS.pageSize,
  connections: 50,
  warmUpSeconds: 2,
  seconds: 10,
} as const

export const READ_TARGETS = { listToToyRatio: 0.8 } as const

export type ReadBenchDeps = {
  createDatabase: (purpose: string) => Promise<string>
  startChild: (script: string, env: Record<string, string>) => Promise<ServerChild>
  stopChild: (child: ServerChild) => Promise<void>
  postmasterPid: number | undefined
  log: (message: string) => void
}

export type ReadMeasurement = HttpBenchResult & { cpu: CpuShares | undefined }
export type ReadBenchResult = { endpoints: ReadMeasurement; customers: ReadMeasurement; toy: ReadMeasurement }

const ENDPOINT_BODY = JSON.stringify({
  url: 'https://hooks.example.com/payments',
  description: 'benchmark endpoint',
  filterTypes: ['transfer.completed', 'transfer.failed'],
  metadata: { team: 'bench' },
})
const customerBody = (i: number) => JSON.stringify({
  firstName: 'Ada', lastName: `Reader ${i}`, email: `ada.${i}@example.com`, countryCode: 'GB', metadata: { ref: `bench-${i}` },
})

async function measure(deps: ReadBenchDeps, name: string, server: ServerChild, target: HttpTarget): Promise<ReadMeasurement> {
  deps.log(`${name}: warm-up ${READ_BENCH_PLAN.warmUpSeconds} s, then ${READ_BENCH_PLAN.seconds} s at ${READ_BENCH_PLAN.connections} connections`)
  await runHttpBench(target, { connections: READ_BENCH_PLAN.connections, durationSeconds: READ_BENCH_PLAN.warmUpSeconds })
  const cpu = measureCpu(server.pid, deps.postmasterPid)
  const result = await runHttpBench(target, { connections: READ_BENCH_PLAN.connections, durationSeconds: READ_BENCH_PLAN.seconds })
  if (result.non2xx > 0) deps.log(`${name}: status codes ${JSON.stringify(result.statusCodes)}`)
  return { ...result, cpu: cpu?.() }
}

async function seed(createUrl: string, listUrl: string, headers: Record<string, string>, body: (i: number) => string): Promise<void> {
  for (let start = 0; start < READ_BENCH_PLAN.seededItems; start += READ_BENCH_PLAN.seedConcurrency) {
    await Promise.all(Array.from({ length: Math.min(READ_BENCH_PLAN.seedConcurrency, READ_BENCH_PLAN.seededItems - start) }, async (_, k) => {
      const response = await fetch(createUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body(start + k) })
      if (response.status !== 201) throw new Error(`seeding ${createUrl} answered ${response.status}: ${await response.text()}`)
    }))
  }
  const page = (await (await fetch(`${listUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, { headers })).json()) as { data: unknown[] }
  if (page.data.length !== READ_BENCH_PLAN.pageSize) throw new Error(`GET ${listUrl} listed ${page.data.length} items, not ${READ_BENCH_PLAN.pageSize}`)
}

export async function runReadBench(deps: ReadBenchDeps): Promise<ReadBenchResult> {
  const toyServer = await deps.startChild('./readToyServer.ts', { DATABASE_URL: await deps.createDatabase('read_toy') })
  let toy: ReadMeasurement
  try {
    toy = await measure(deps, 'read toy GET (50 rows)', toyServer, { url: `${toyServer.baseUrl}/toy/list`, method: 'GET' })
  } finally {
    await deps.stopChild(toyServer)
  }
  const api = await deps.startChild('./serveApp.ts', { DATABASE_URL: await deps.createDatabase('reads'), LOG_LEVEL: 'silent' })
  try {
    const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
    const endpointsUrl = `${api.baseUrl}/v1/webhooks/endpoints`
    const customersUrl = `${api.baseUrl}/v1/customers`
    await seed(endpointsUrl, endpointsUrl, auth, () => ENDPOINT_BODY)
    await seed(`${customersUrl}/individuals`, customersUrl, auth, customerBody)
    const endpoints = await measure(deps, 'GET /v1/webhooks/endpoints (50/page)', api, { url: `${endpointsUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, method: 'GET', headers: auth })
    const customers = await measure(deps, 'GET /v1/customers (50/page)', api, { url: `${customersUrl}?page_size=${READ_BENCH_PLAN.pageSize}`, method: 'GET', headers: auth })
    return { endpoints, customers, toy }
  } finally {
    await deps.stopChild(api)
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
      const cpu = r.cpu ? ` cpu srv/pg/gen/other ${[r.cpu.server, r.cpu.postgres, r.cpu.loadGenerator, r.cpu.other].map((v) => v.toFixed(0)).join('/')}` : ''
      process.stdout.write(`${name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latency.p50Ms.toFixed(2)} ms, p99 ${r.latency.p99Ms.toFixed(2)} ms, non-2xx ${r.non2xx}${cpu}\n`)
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
