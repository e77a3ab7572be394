// The hash chain's cost and the audit checks' speed (issue 29): appends by 20 writers and the command
// path (POST /v1/webhooks/endpoints through the service) each run with the chain and without it (the
// Postgres store's `hashChain: false`, the bench's baseline only), in alternating rounds so drift on a
// shared machine weighs on both alike; then `audit verify`'s two passes over the chained store's events:
// the chain alone, and the chain with a checkpoint's Merkle root recomputed.
import { performance } from 'node:perf_hooks'
import { chainVerifier } from '../events/integrity/chainVerifier.js'
import { checkpointChecker } from '../events/integrity/checkpointCheck.js'
import { checkpointSigner } from '../events/integrity/checkpointSignature.js'
import { EMPTY_FRONTIER, appendLeaf, frontierRoot } from '../events/integrity/merkleTree.js'
import { leafOfEvent } from '../events/integrity/merkleLeaf.js'
import { storedEventPages } from '../events/integrity/storedOrder.js'
import { getPostgresEventStore } from '../events/store/postgres/index.js'
import type { EventStore } from '../events/store/port.js'
import { type AppendBenchResult, runAppendBench } from './appendBench.js'
import type { ServerChild } from './child.js'
import type { HttpTarget } from './httpBench.js'
import { type RoundResult, combineRounds } from './rounds.js'

export const INTEGRITY_BENCH_PLAN = {
  writers: 20,
  warmUpAppends: 10_000,
  appendsPerRound: 10_000,
  rounds: 3,
  commandSecondsPerRound: 5,
} as const

export const INTEGRITY_TARGETS = {
  /** Issue 29: the chain costs at most 3% of the same run without it. */
  chainedToUnchainedRatio: 0.97,
} as const

export type IntegrityBenchDeps = {
  createDatabase(purpose: string): Promise<string>
  startChild(script: string, env: Record<string, string>): Promise<ServerChild>
  stopChild(child: ServerChild): Promise<void>
  measure(name: string, server: ServerChild, target: HttpTarget, seconds: number): Promise<RoundResult>
  log(message: string): void
}

export type VerifyPass = { events: number; seconds: number; eventsPerSecond: number }

export type IntegrityBenchResult = {
  appends: { chained: AppendBenchResult[]; unchained: AppendBenchResult[] }
  command: { chained: RoundResult; unchained: RoundResult }
  verifyChain: VerifyPass
  verifyChainAndTree: VerifyPass
}

/** Rounds as one run: their appends and time summed (so events/s is the time-weighted mean), the last round's latency. */
export function combineAppendRounds(runs: readonly AppendBenchResult[]): AppendBenchResult {
  const appends = runs.reduce((n, r) => n + r.appends, 0)
  const events = runs.reduce((n, r) => n + r.events, 0)
  const seconds = runs.reduce((n, r) => n + r.seconds, 0)
  return { ...runs.at(-1)!, appends, events, seconds, appendsPerSecond: appends / seconds, eventsPerSecond: events / seconds }
}

async function appendRounds(deps: IntegrityBenchDeps, chained: EventStore, unchained: EventStore) {
  const plan = INTEGRITY_BENCH_PLAN
  for (const store of [chained, unchained]) await runAppendBench(store, plan.writers, plan.warmUpAppends)
  const runs = { chained: [] as AppendBenchResult[], unchained: [] as AppendBenchResult[] }
  for (let round = 0; round < plan.rounds; round++) {
    // Alternating which goes first, so neither always runs on the warmer cache.
    const order = round % 2 === 0 ? (['chained', 'unchained'] as const) : (['unchained', 'chained'] as const)
    for (const variant of order) {
      deps.log(`hash chain: appends ${variant}, round ${round + 1} of ${plan.rounds}`)
      runs[variant].push(await runAppendBench(variant === 'chained' ? chained : unchained, plan.writers, plan.appendsPerRound))
    }
  }
  return runs
}

async function commandRounds(deps: IntegrityBenchDeps, body: string) {
  const plan = INTEGRITY_BENCH_PLAN
  const servers = {
    chained: await deps.startChild('./serveApp.ts', { DATABASE_URL: await deps.createDatabase('chain_app'), LOG_LEVEL: 'silent' }),
    unchained: await deps.startChild('./serveApp.ts', {
      DATABASE_URL: await deps.createDatabase('nochain_app'),
      LOG_LEVEL: 'silent',
      BENCH_HASH_CHAIN: 'off',
    }),
  }
  try {
    const rounds = { chained: [] as RoundResult[], unchained: [] as RoundResult[] }
    for (let round = 0; round < plan.rounds; round++) {
      const order = round % 2 === 0 ? (['chained', 'unchained'] as const) : (['unchained', 'chained'] as const)
      for (const variant of order) {
        const server = servers[variant]
        const target: HttpTarget = {
          url: `${server.baseUrl}/v1/webhooks/endpoints`,
          method: 'POST',
          headers: { authorization: `Bearer ${String(server.ready.apiKey)}` },
          body,
        }
        rounds[variant].push(
          await deps.measure(`POST /v1/webhooks/endpoints, ${variant} (round ${round + 1})`, server, target, plan.commandSecondsPerRound),
        )
      }
    }
    return { chained: combineRounds(rounds.chained), unchained: combineRounds(rounds.unchained) }
  } finally {
    await deps.stopChild(servers.chained)
    await deps.stopChild(servers.unchained)
  }
}

/** The checkpoint a sealer would have signed over the whole store (not timed: the sealer's work, not the audit's). */
async function checkpointOver(store: EventStore) {
  let frontier = EMPTY_FRONTIER
  for await (const page of storedEventPages(store)) for (const event of page) frontier = appendLeaf(frontier, leafOfEvent(event))
  const signer = checkpointSigner(Buffer.alloc(32, 1))
  const signed = signer.sign({
    treeSize: frontier.size,
    rootHash: frontierRoot(frontier).toString('hex'),
    sealedAt: new Date().toISOString(),
  })
  return { checkpoint: { ...signed, publicKey: signer.publicKeyRaw.toString('base64') }, key: signer.publicKeyRaw }
}

/** What `audit verify` does, timed: every stored event through the chain verifier, and with `tree` a checkpoint's root. */
async function verifyPass(store: EventStore, tree?: Awaited<ReturnType<typeof checkpointOver>>): Promise<VerifyPass> {
  const started = performance.now()
  const chain = chainVerifier()
  const checker = tree ? checkpointChecker(tree.checkpoint, tree.key) : undefined
  for await (const page of storedEventPages(store))
    for (const event of page) {
      chain.add(event)
      checker?.add(event)
    }
  const report = chain.report()
  const seconds = (performance.now() - started) / 1000
  if (!report.consistent) throw new Error(`audit verify found ${report.problemCount} problems in the bench's own store`)
  const checked = checker?.report()
  if (checked && !checked.consistent) throw new Error(`the bench's checkpoint does not verify: ${checked.problem}`)
  return { events: report.events, seconds, eventsPerSecond: report.events / seconds }
}

export async function runIntegrityBench(deps: IntegrityBenchDeps, endpointBody: string): Promise<IntegrityBenchResult> {
  const chained = await getPostgresEventStore({ connectionString: await deps.createDatabase('chain'), onError: (e) => deps.log(String(e)) })
  const unchained = await getPostgresEventStore({
    connectionString: await deps.createDatabase('nochain'),
    onError: (e) => deps.log(String(e)),
    hashChain: false,
  })
  try {
    const appends = await appendRounds(deps, chained, unchained)
    deps.log('audit verify: the chained store, chain alone, then chain and tree')
    const verifyChain = await verifyPass(chained)
    const verifyChainAndTree = await verifyPass(chained, await checkpointOver(chained))
    const command = await commandRounds(deps, endpointBody)
    return { appends, command, verifyChain, verifyChainAndTree }
  } finally {
    await chained.close()
    await unchained.close()
  }
}

/** Chained over unchained: events/s for the appends (mean of the rounds), req/s for the command path. */
export function chainRatios(result: IntegrityBenchResult) {
  return {
    appends: combineAppendRounds(result.appends.chained).eventsPerSecond / combineAppendRounds(result.appends.unchained).eventsPerSecond,
    command: result.command.chained.requestsPerSecond / result.command.unchained.requestsPerSecond,
    appendsPerRound: result.appends.chained.map((c, i) => c.eventsPerSecond / result.appends.unchained[i]!.eventsPerSecond),
  }
}
