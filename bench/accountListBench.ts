// The account list at 100 000 accounts: p50 and p99 of realistic list requests through HTTP (the
// service in its own child process) on one organization holding 100 000 accounts (the mix of
// accountListSeed.ts, written as read-model rows: see there why not as events), and one customer's
// ten. `npm run bench` runs it as one phase; `tsx bench/accountListBench.ts` runs it alone.
import { pathToFileURL } from 'node:url'
import { openReadDatabase } from '../projections/database.js'
import { ACCOUNT_SEED_PLAN, insertSeedAccounts } from './accountListSeed.js'
import { type CpuShares, measureCpu } from './cpu.js'
import { type HttpBenchResult, runHttpBench } from './httpBench.js'
import type { PhaseDeps } from './phaseDeps.js'

export const ACCOUNT_LIST_BENCH_PLAN = {
  /** Few connections: the rows measure a list's latency, not the server's queue at saturation. */
  connections: 4,
  warmUpSeconds: 1,
  secondsPerTarget: 4,
  customerAccounts: 10,
} as const

export type AccountListBenchDeps = PhaseDeps

export type AccountListMeasurement = HttpBenchResult & { name: string; items: number; cpu: CpuShares | undefined }
export type AccountListBenchResult = { seedSeconds: number; lists: AccountListMeasurement[] }

type Page = { data: { id: string }[]; total: number }

async function getPage(url: string, headers: Record<string, string>): Promise<Page> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as Page
}

export async function runAccountListBench(deps: AccountListBenchDeps): Promise<AccountListBenchResult> {
  const P = ACCOUNT_LIST_BENCH_PLAN
  const databaseUrl = await deps.createDatabase('account_list')
  const api = await deps.startChild('./serveApp.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' })
  const { db } = openReadDatabase(databaseUrl, 2)
  try {
    const organizationId = String(api.ready.organizationId)
    const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
    const created = await fetch(`${api.baseUrl}/v1/customers/individuals`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ada', lastName: 'Accounts', email: 'ada.accounts@example.com' }),
    })
    if (created.status !== 201) throw new Error(`creating the customer answered ${created.status}: ${await created.text()}`)
    const customerId = ((await created.json()) as { id: string }).id

    deps.log(`account lists: seeding ${ACCOUNT_SEED_PLAN.accounts} accounts`)
    const started = Date.now()
    await insertSeedAccounts(db, organizationId, 0, ACCOUNT_SEED_PLAN.accounts)
    await insertSeedAccounts(db, organizationId, ACCOUNT_SEED_PLAN.accounts, ACCOUNT_SEED_PLAN.accounts + P.customerAccounts, customerId)
    const seedSeconds = (Date.now() - started) / 1000

    const accounts = `${api.baseUrl}/v1/accounts`
    const first = await getPage(accounts, auth)
    if (first.total !== ACCOUNT_SEED_PLAN.accounts + P.customerAccounts) throw new Error(`the list's total is ${first.total}`)
    // A cursor halfway down the list: the page after the 250th of 500.
    const middle = await getPage(`${accounts}?limit=1&offset=${ACCOUNT_SEED_PLAN.accounts / 2}`, auth)
    const targets = [
      { name: 'GET /v1/accounts (default page of 500)', path: '/v1/accounts' },
      { name: "GET /v1/customers/{id}/accounts (a customer's 10)", path: `/v1/customers/${customerId}/accounts` },
      { name: 'GET /v1/accounts?status=ACTIVE&type=INFINITE_BANK', path: '/v1/accounts?status=ACTIVE&type=INFINITE_BANK' },
      { name: 'GET /v1/accounts?currencyCodes=EUR', path: '/v1/accounts?currencyCodes=EUR' },
      { name: 'GET /v1/accounts?starting_after= (halfway)', path: `/v1/accounts?starting_after=${middle.data[0]!.id}` },
    ]
    const lists: AccountListMeasurement[] = []
    for (const target of targets) {
      const url = `${api.baseUrl}${target.path}`
      const items = (await getPage(url, auth)).data.length
      deps.log(`${target.name}: warm-up ${P.warmUpSeconds} s, then ${P.secondsPerTarget} s at ${P.connections} connections`)
      await runHttpBench({ url, method: 'GET', headers: auth }, { connections: P.connections, durationSeconds: P.warmUpSeconds })
      const cpu = measureCpu(api.pid, deps.postmasterPid)
      const result = await runHttpBench(
        { url, method: 'GET', headers: auth },
        { connections: P.connections, durationSeconds: P.secondsPerTarget },
      )
      if (result.non2xx > 0) deps.log(`${target.name}: status codes ${JSON.stringify(result.statusCodes)}`)
      lists.push({ ...result, name: target.name, items, cpu: cpu?.() })
    }
    return { seedSeconds, lists }
  } finally {
    await db.destroy()
    await deps.stopChild(api)
  }
}

// ---- alone: `tsx bench/accountListBench.ts` ---------------------------------------------------

async function runAlone(): Promise<void> {
  const { openBenchPostgres } = await import('./database.js')
  const { startServerChild, killAllChildren } = await import('./child.js')
  const database = await openBenchPostgres()
  try {
    const result = await runAccountListBench({
      createDatabase: (purpose) => database.createDatabase(purpose),
      startChild: startServerChild,
      stopChild: (child) => child.stop(),
      postmasterPid: database.postmasterPid,
      log: (message) => process.stderr.write(`account list bench: ${message}\n`),
    })
    process.stdout.write(`seeded ${ACCOUNT_SEED_PLAN.accounts} accounts in ${result.seedSeconds.toFixed(1)} s\n`)
    for (const r of result.lists) {
      process.stdout.write(
        `${r.name}: ${r.items} items, ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latency.p50Ms.toFixed(2)} ms, ` +
          `p99 ${r.latency.p99Ms.toFixed(2)} ms, non-2xx ${r.non2xx}\n`,
      )
    }
  } finally {
    killAllChildren()
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone()
