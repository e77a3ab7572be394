// Cost that does not grow with history (issue 12, point 10): a hold on an account with 1 000 000
// prior postings against one on a fresh account, through the command runtime on
// the production store (event codec, Postgres) with snapshots in the read database. The long
// history is appended straight to the store in batches of 1 000, its snapshot taken as `snapshots
// rebuild` takes it (folded from the first event), then holds are timed one at a time, the two
// accounts interleaved. The target: after a restart (a fresh process state, so the first hold on
// each account loads it cold: the snapshot and the events after it), N holds in turn as a server
// runs them (its kept state, a snapshot saved every everyEvents in the background). Shown beside
// it, the worst case: every hold in a fresh process state, so each one reads the snapshot.
import { performance } from 'node:perf_hooks'
import { type Commands, createCommandRuntime } from '../commands/runtime/commandRuntime.js'
import { createPostgresSnapshotStore, openSnapshotDatabase } from '../commands/runtime/postgresSnapshotStore.js'
import { type Snapshotting, drainSaves, snapshotting } from '../commands/runtime/snapshots.js'
import { takeSnapshot } from '../commands/runtime/takeSnapshot.js'
import type { DomainEvent } from '../domain/decider.js'
import { loadConfig } from '../server/config.js'
import { openRuntime } from '../server/runtime.js'
import { HISTORY_SUBJECT, type HistoryBenchSubject } from './historySubject.js'
import { type LatencySummary, LatencySamples } from './stats.js'

export const HISTORY_BENCH_PLAN = {
  priorPostings: 1_000_000,
  /** Holds timed per account in each mode. */
  holds: 200,
} as const

export const HISTORY_TARGETS = {
  /** The long account's p50 over the fresh one's, cold and warm. */
  maxLongToFreshP50Ratio: 1.2,
} as const

export type HistoryModeResult = {
  fresh: LatencySummary
  long: LatencySummary
  p50Ratio: number
  p99Ratio: number
  /** The first hold on each account (a cold load in both modes). */
  firstFreshMs: number
  firstLongMs: number
}

export type HistoryBenchResult = {
  subject: string
  priorPostings: number
  fillSeconds: number
  fillEventsPerSecond: number
  snapshotSeconds: number
  snapshotChars: number
  /** After a restart, the holds in turn (the target). */
  afterRestart: HistoryModeResult
  /** Every hold in a fresh process state. */
  coldEach: HistoryModeResult
}

const origin = { organizationId: 'org_bench', requestId: 'req_bench', actor: 'bench' }

type Options = { databaseUrl: string; log: (message: string) => void; plan?: { priorPostings: number; holds: number } }

export async function runHistoryBench(options: Options): Promise<HistoryBenchResult> {
  return measureHistory(HISTORY_SUBJECT, options)
}

async function measureHistory<State, Command, Event extends DomainEvent>(
  subject: HistoryBenchSubject<State, Command, Event>,
  options: Options,
): Promise<HistoryBenchResult> {
  const { log } = options
  const plan = options.plan ?? HISTORY_BENCH_PLAN
  subject.register()
  const config = loadConfig({ ...process.env, DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'silent' })
  const runtime = await openRuntime(config, { info: () => undefined, error: (_o, m) => log(`history: ${m ?? 'error'}`) })
  try {
    const snapshotDb = openSnapshotDatabase(runtime.pool)
    const snapshots = createPostgresSnapshotStore(snapshotDb)
    const warn = { warn: (details: Record<string, unknown>, message: string) => log(`history: ${message} ${JSON.stringify(details)}`) }
    const { decider } = subject
    const longId = subject.accountId('historylong')
    const freshId = subject.accountId('historyfresh')

    log(`history: appending ${plan.priorPostings.toLocaleString('en-US')} postings to one account (${subject.name})`)
    let started = performance.now()
    await subject.appendHistory(runtime.commands, longId, plan.priorPostings)
    const fillSeconds = (performance.now() - started) / 1000
    log(`history: appended in ${fillSeconds.toFixed(1)} s; taking its snapshot from the events`)
    started = performance.now()
    await takeSnapshot(runtime.store, snapshots, decider, subject.stream(longId))
    const snapshotSeconds = (performance.now() - started) / 1000
    const taken = await snapshotDb
      .selectFrom('aggregate_snapshots')
      .select((eb) => eb.fn<number>('length', ['state']).as('chars'))
      .where('stream', '=', subject.stream(longId))
      .executeTakeFirstOrThrow()

    const processes: Snapshotting[] = []
    /** A process as after a restart: nothing kept, the snapshot store in use. */
    const freshProcess = (): Commands => {
      const using = snapshotting(snapshots, warn)
      processes.push(using)
      return createCommandRuntime({ store: runtime.store, snapshots: using })
    }
    let holds = 0
    const timedHold = async (commands: Commands, accountId: string): Promise<number> => {
      const command = subject.hold(accountId, holds++)
      const at = performance.now()
      await commands.handle(decider, subject.stream(accountId), command, origin)
      return performance.now() - at
    }
    await subject.open?.(runtime.commands, freshId)
    await freshProcess().handle(decider, subject.stream(freshId), subject.fund(freshId), origin)

    const interleaved = async (processFor: () => Commands): Promise<HistoryModeResult> => {
      const fresh = new LatencySamples(plan.holds)
      const long = new LatencySamples(plan.holds)
      const first = { long: 0, fresh: 0 }
      for (let i = 0; i < plan.holds; i++) {
        const commands = processFor()
        const longMs = await timedHold(commands, longId)
        const freshMs = await timedHold(commands, freshId)
        long.add(longMs)
        fresh.add(freshMs)
        if (i === 0) Object.assign(first, { long: longMs, fresh: freshMs })
      }
      await Promise.all(processes.map(drainSaves))
      const f = fresh.summary()
      const l = long.summary()
      return {
        fresh: f,
        long: l,
        p50Ratio: l.p50Ms / f.p50Ms,
        p99Ratio: l.p99Ms / f.p99Ms,
        firstLongMs: first.long,
        firstFreshMs: first.fresh,
      }
    }
    log(`history: after a restart, ${plan.holds} holds on each account in turn`)
    const server = freshProcess()
    const afterRestart = await interleaved(() => server)
    log(`history: ${plan.holds} holds on each account, each in a fresh process state`)
    const coldEach = await interleaved(() => freshProcess())
    return {
      subject: subject.name,
      priorPostings: plan.priorPostings,
      fillSeconds,
      fillEventsPerSecond: plan.priorPostings / fillSeconds,
      snapshotSeconds,
      snapshotChars: Number(taken.chars),
      afterRestart,
      coldEach,
    }
  } finally {
    await runtime.close()
  }
}
