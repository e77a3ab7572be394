// The server's one list of background jobs: what every server process runs on a timer, and how
// often. Each job is safe to run in several processes at once (the scheduler claims rows with SKIP
// LOCKED; the purges delete the same rows once; the first server to find the embedded cluster gone
// starts it, the others find it running; a checkpoint is signed once, under the tree's row lock).
// server/main.ts starts and stops them.
import { AUDIT_CHECKPOINT_LIMITS } from '../events/integrity/checkpointSealer.js'
import { sealAuditCheckpoint } from './audit/auditCheckpoints.js'
import { runDueCommands } from '../commands/scheduler/runDueCommands.js'
import { SCHEDULER_LIMITS } from '../commands/scheduler/limits.js'
import { WEBHOOK_LIMITS } from '../webhooks/limits.js'
import { purgeExpiredMessages } from '../webhooks/retention/purgeExpiredMessages.js'
import { checkEmbeddedCluster } from './database/clusterWatch.js'
import { EMBEDDED_LIMITS } from './database/embeddedPostgres.js'
import { IDEMPOTENCY_LIMITS, purgeExpiredIdempotencyKeys } from './idempotency/idempotency.js'
import type { Runtime } from './runtime.js'

export type JobLog = { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void }
/** `embedded`: the server's embedded cluster, when it runs on one (not with DATABASE_URL). */
export type JobContext = Pick<Runtime, 'db' | 'schedulerDb' | 'commands' | 'auditSealing'> &
  Partial<Pick<Runtime, 'embedded'>> & { log: JobLog }
/** What a run gets: the context, and a signal aborted on stop (a long run ends early). */
type RunContext = JobContext & { signal: AbortSignal }

export type BackgroundJob = {
  name: string
  /** From the end of one run to the start of the next (a slow run never overlaps itself). */
  intervalMs: number
  run: (context: RunContext) => Promise<unknown>
}

export const backgroundJobs: readonly BackgroundJob[] = [
  // Due timers (verification-session expiry, ...): the durable scheduler's worker.
  {
    name: 'scheduler',
    intervalMs: SCHEDULER_LIMITS.pollIntervalMs,
    run: ({ schedulerDb, commands, log, signal }) => runDueCommands({ db: schedulerDb, commands, log, signal }),
  },
  { name: 'webhook-retention', intervalMs: WEBHOOK_LIMITS.retentionIntervalMs, run: ({ db }) => purgeExpiredMessages(db) },
  { name: 'idempotency-purge', intervalMs: IDEMPOTENCY_LIMITS.purgeIntervalMs, run: ({ db }) => purgeExpiredIdempotencyKeys(db) },
  // A signed checkpoint of the event log's Merkle tree once the last is AUDIT_CHECKPOINT_INTERVAL_MS old and the tree grew.
  {
    name: 'audit-checkpoints',
    intervalMs: AUDIT_CHECKPOINT_LIMITS.checkIntervalMs,
    run: ({ db, auditSealing }) => sealAuditCheckpoint(db, auditSealing, { due: true }),
  },
  // The embedded cluster runs: started again when its owner stopped it, taken over when its owner died or stops.
  {
    name: 'embedded-cluster',
    intervalMs: EMBEDDED_LIMITS.checkIntervalMs,
    run: ({ embedded, log }) => (embedded ? checkEmbeddedCluster(embedded, log) : Promise.resolve()),
  },
]

export type RunningJobs = { stop(): Promise<void> }

/** Runs each job at once, then every `intervalMs` after the last run ended, until stopped. */
export function startBackgroundJobs(context: JobContext, jobs: readonly BackgroundJob[] = backgroundJobs): RunningJobs {
  let stopped = false
  const stopping = new AbortController()
  const timers = new Set<NodeJS.Timeout>()
  const running = new Set<Promise<void>>()
  const loop = (job: BackgroundJob) => {
    if (stopped) return
    const run = job.run({ ...context, signal: stopping.signal }).then(
      () => undefined,
      (error: unknown) => context.log.error({ err: error, job: job.name }, `background job ${job.name} failed`),
    )
    running.add(run)
    void run.finally(() => {
      running.delete(run)
      if (stopped) return
      const timer = setTimeout(() => {
        timers.delete(timer)
        loop(job)
      }, job.intervalMs)
      timers.add(timer)
    })
  }
  for (const job of jobs) loop(job)
  return {
    async stop() {
      stopped = true
      stopping.abort()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await Promise.all(running)
    },
  }
}
