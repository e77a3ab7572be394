// The transfer list at 1 000 000 transfers: the filtered lists the issue names (status, customer,
// clientReferenceId) through HTTP (the service in its own child process), at 1 connection (p50 and
// p99 of one request at a time: the list's own latency) and at 50 connections (req/s against the
// read toy, readToyServer.ts, measured in interleaved rounds so that other work on a shared machine
// weighs on both alike; beside it, for reference, the same page served without the service:
// transferToyServer.ts). Rows are written directly (transferListSeed.ts: see there why).
// `npm run bench` runs it as one phase; `tsx bench/transferListBench.ts` runs it alone.
import { pathToFileURL } from 'node:url'
import { openReadDatabase } from '../projections/database.js'
import type { ServerChild } from './child.js'
import { type RoundResult, combineRounds } from './rounds.js'
import { measureCpu } from './cpu.js'
import { type HttpTarget, runHttpBench } from './httpBench.js'
import type { PhaseDeps } from './phaseDeps.js'
import {
  BIG_CUSTOMER,
  TRANSFER_SEED_PLAN,
  insertSeedCustomers,
  insertSeedTransfers,
  seedClientReferenceId,
  seedTransferCustomerId,
} from './transferListSeed.js'

export const TRANSFER_LIST_BENCH_PLAN = {
  /**
   * Each list at 1 connection before any is measured: V8 takes several seconds of load to tier the
   * route up (the p99 of a fresh process falls from ~9 ms to ~3 ms over the first 8 s); a steady
   * service is what the latency target is about, as for the appends' warm-up.
   */
  tierUpSecondsPerList: 2,
  warmUpSeconds: 1,
  /** One request at a time: the list's latency. */
  secondsAtOne: 4,
  connections: 50,
  rounds: 2,
  secondsPerRound: 3,
  /** Log the seed's progress every this many rows. */
  progressEvery: 200_000,
} as const

export const TRANSFER_LIST_TARGETS = { p99AtOneMs: 5, toReadToyRatio: 0.8 } as const

export type TransferListBenchDeps = PhaseDeps

export type Measured = RoundResult
export type TransferListMeasurement = { name: string; items: number; one: Measured; many: Measured }
export type TransferListBenchResult = {
  seedSeconds: number
  lists: TransferListMeasurement[]
  toy: Measured
  /** The same-page reference (transferToyServer.ts): the status=PENDING page without the service. */
  samePageToy: Measured
  /** The same-page reference at 1 connection: the latency of the page itself, without the service. */
  samePageToyOne: Measured
}

type Page = { data: { id: string }[]; has_more: boolean }

async function getPage(url: string, headers: Record<string, string>): Promise<Page> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as Page
}

async function run(server: ServerChild, deps: TransferListBenchDeps, target: HttpTarget, connections: number, seconds: number) {
  const cpu = measureCpu(server.pid, deps.postmasterPid)
  const result = await runHttpBench(target, { connections, durationSeconds: seconds })
  return { ...result, cpu: cpu?.() }
}

export async function runTransferListBench(deps: TransferListBenchDeps): Promise<TransferListBenchResult> {
  const P = TRANSFER_LIST_BENCH_PLAN
  const toy = await deps.startChild('./readToyServer.ts', { DATABASE_URL: await deps.createDatabase('transfer_list_toy') })
  try {
    const databaseUrl = await deps.createDatabase('transfer_list')
    const api = await deps.startChild('./serveApp.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' })
    const { db } = openReadDatabase(databaseUrl, 2)
    try {
      const organizationId = String(api.ready.organizationId)
      const auth = { authorization: `Bearer ${String(api.ready.apiKey)}` }
      deps.log(`transfer lists: seeding ${TRANSFER_SEED_PLAN.transfers} transfers`)
      const started = Date.now()
      let logged = 0
      await insertSeedTransfers(db, organizationId, 0, TRANSFER_SEED_PLAN.transfers, (written) => {
        if (written - logged < P.progressEvery) return
        logged = written
        deps.log(`transfer lists: ${written} rows in ${((Date.now() - started) / 1000).toFixed(0)} s`)
      })
      const seedSeconds = (Date.now() - started) / 1000

      // A reference of the main organization's (transfer 123 456 has one: even, not another organization's).
      const reference = seedClientReferenceId(123_456)
      const customer = seedTransferCustomerId(1_234)
      await insertSeedCustomers(db, organizationId, [customer, BIG_CUSTOMER])
      const lists = [
        { name: 'GET /v1/transfers?status=PENDING', path: '/v1/transfers?status=PENDING' },
        { name: 'GET /v1/transfers?customerId= (a customer, either side)', path: `/v1/transfers?customerId=${customer}` },
        { name: 'GET /v1/transfers?customerId= (100 000 transfers)', path: `/v1/transfers?customerId=${BIG_CUSTOMER}` },
        { name: 'GET /v1/transfers?clientReferenceId=', path: `/v1/transfers?clientReferenceId=${reference}` },
        { name: 'GET /v1/transfers?status=FAILED&customerId=', path: `/v1/transfers?status=FAILED&customerId=${BIG_CUSTOMER}` },
      ]
      const targets = lists.map((list) => ({
        ...list,
        target: { url: `${api.baseUrl}${list.path}`, method: 'GET', headers: auth } as const,
      }))
      const items = new Map<string, number>()
      for (const { name, target } of targets) items.set(name, (await getPage(target.url, auth)).data.length)
      if (items.get(targets[3]!.name) !== 1)
        throw new Error(`clientReferenceId ${reference} listed ${items.get(targets[3]!.name)} transfers`)

      deps.log(`transfer lists: tier-up, ${P.tierUpSecondsPerList} s per list at 1 connection`)
      for (const { target } of targets) await runHttpBench(target, { connections: 1, durationSeconds: P.tierUpSecondsPerList })
      const one = new Map<string, Measured>()
      for (const { name, target } of targets) {
        deps.log(`${name}: warm-up ${P.warmUpSeconds} s, then ${P.secondsAtOne} s at 1 connection`)
        await runHttpBench(target, { connections: 1, durationSeconds: P.warmUpSeconds })
        one.set(name, await run(api, deps, target, 1, P.secondsAtOne))
      }
      const toyTarget: HttpTarget = { url: `${toy.baseUrl}/toy/list`, method: 'GET' }
      const samePage = await deps.startChild('./transferToyServer.ts', { DATABASE_URL: databaseUrl, TOY_ORGANIZATION_ID: organizationId })
      try {
        const samePageTarget: HttpTarget = { url: `${samePage.baseUrl}/toy/transfers`, method: 'GET' }
        if ((await getPage(samePageTarget.url, {})).data.length !== items.get(targets[0]!.name))
          throw new Error('the same-page toy does not answer the status=PENDING page')
        deps.log(`transfer lists: the same-page reference, tier-up ${P.tierUpSecondsPerList} s, then ${P.secondsAtOne} s at 1 connection`)
        await runHttpBench(samePageTarget, { connections: 1, durationSeconds: P.tierUpSecondsPerList })
        const samePageToyOne = await run(samePage, deps, samePageTarget, 1, P.secondsAtOne)
        deps.log(`transfer lists: ${P.rounds} rounds of ${P.secondsPerRound} s at ${P.connections} connections, with both toys`)
        await runHttpBench(toyTarget, { connections: P.connections, durationSeconds: P.warmUpSeconds })
        await runHttpBench(samePageTarget, { connections: P.connections, durationSeconds: P.warmUpSeconds })
        const rounds = new Map<string, Measured[]>([
          ['toy', []],
          ['samePageToy', []],
          ...targets.map(({ name }) => [name, []] as [string, Measured[]]),
        ])
        for (let round = 0; round < P.rounds; round++) {
          rounds.get('toy')!.push(await run(toy, deps, toyTarget, P.connections, P.secondsPerRound))
          rounds.get('samePageToy')!.push(await run(samePage, deps, samePageTarget, P.connections, P.secondsPerRound))
          for (const { name, target } of targets) rounds.get(name)!.push(await run(api, deps, target, P.connections, P.secondsPerRound))
        }
        const result = targets.map(({ name }) => ({
          name,
          items: items.get(name)!,
          one: one.get(name)!,
          many: combineRounds(rounds.get(name)!),
        }))
        for (const r of result) {
          const codes = { ...r.one.statusCodes, ...r.many.statusCodes }
          if (r.one.non2xx + r.many.non2xx > 0) deps.log(`${r.name}: status codes ${JSON.stringify(codes)}`)
        }
        return {
          seedSeconds,
          lists: result,
          toy: combineRounds(rounds.get('toy')!),
          samePageToy: combineRounds(rounds.get('samePageToy')!),
          samePageToyOne,
        }
      } finally {
        await deps.stopChild(samePage)
      }
    } finally {
      await db.destroy()
      await deps.stopChild(api)
    }
  } finally {
    await deps.stopChild(toy)
  }
}

// ---- alone: `tsx bench/transferListBench.ts` --------------------------------------------------

async function runAlone(): Promise<void> {
  const { openBenchPostgres } = await import('./database.js')
  const { startServerChild, killAllChildren } = await import('./child.js')
  const database = await openBenchPostgres()
  try {
    const result = await runTransferListBench({
      createDatabase: (purpose) => database.createDatabase(purpose),
      startChild: startServerChild,
      stopChild: (child) => child.stop(),
      postmasterPid: database.postmasterPid,
      log: (message) => process.stderr.write(`transfer list bench: ${message}\n`),
    })
    const T = TRANSFER_LIST_TARGETS
    process.stdout.write(`seeded ${TRANSFER_SEED_PLAN.transfers} transfers in ${result.seedSeconds.toFixed(1)} s\n`)
    process.stdout.write(
      `read toy at ${TRANSFER_LIST_BENCH_PLAN.connections} connections: ${result.toy.requestsPerSecond.toFixed(0)} req/s; ` +
        `same-page toy: ${result.samePageToy.requestsPerSecond.toFixed(0)} req/s; at 1 connection p50 ` +
        `${result.samePageToyOne.latency.p50Ms.toFixed(2)} ms, p99 ${result.samePageToyOne.latency.p99Ms.toFixed(2)} ms\n`,
    )
    for (const r of result.lists) {
      const ratio = r.many.requestsPerSecond / result.toy.requestsPerSecond
      const samePage = r.many.requestsPerSecond / result.samePageToy.requestsPerSecond
      process.stdout.write(
        `${r.name}: ${r.items} items; 1 connection: p50 ${r.one.latency.p50Ms.toFixed(2)} ms, p99 ${r.one.latency.p99Ms.toFixed(2)} ms ` +
          `(target < ${T.p99AtOneMs}); ${TRANSFER_LIST_BENCH_PLAN.connections} connections: ` +
          `${r.many.requestsPerSecond.toFixed(0)} req/s, ` +
          `p99 ${r.many.latency.p99Ms.toFixed(1)} ms, ${ratio.toFixed(2)}x the toy (target >= ${T.toReadToyRatio}), ` +
          `${samePage.toFixed(2)}x the same-page toy; non-2xx ${r.one.non2xx + r.many.non2xx}\n`,
      )
    }
  } finally {
    killAllChildren()
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone()
