// Process start-up: configuration, database and event store, projections, first-start demo
// organization, HTTP server, and an orderly stop on SIGINT/SIGTERM that always ends within
// SHUTDOWN_TIMEOUT_MS and never leaves an embedded cluster this server owns running (unless another
// server still uses it: then that server owns it).
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { type RunningJobs, startBackgroundJobs } from './backgroundJobs.js'
import { loadConfig } from './config.js'
import { ensureDemoOrganization } from './firstStart.js'
import { createLogger } from './logger.js'
import { type Runtime, openRuntime } from './runtime.js'
import { armCrashPoint } from '../commands/runtime/crashPoints.js'

const SHUTDOWN_TIMEOUT_MS = 15_000
/** Of the shutdown budget, what is kept back for stopping the embedded cluster when the rest hangs. */
const CLUSTER_STOP_RESERVE_MS = 3_000

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL)

let runtime: Runtime | undefined
let app: FastifyInstance | undefined
let jobs: RunningJobs | undefined
let stopping = false

/** The part of a stop that must happen even when the orderly one hangs: the cluster we own. */
async function stopClusterNow(): Promise<void> {
  await runtime?.embedded
    ?.stop('immediate')
    .catch((error: unknown) => logger.error({ err: error }, 'could not stop the embedded PostgreSQL'))
}

async function stop(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'stopping')
  const forced = setTimeout(() => {
    logger.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'orderly stop timed out; stopping the embedded PostgreSQL and exiting')
    void stopClusterNow().finally(() => process.exit(1))
  }, SHUTDOWN_TIMEOUT_MS - CLUSTER_STOP_RESERVE_MS)
  forced.unref()
  // And whatever happens, the process is gone by the deadline.
  setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref()
  try {
    // A signal during boot: let boot reach its next check, so what it opened is closed below.
    await booting
    // First, so a server started or running beside this one takes the embedded cluster over now
    // and this stop leaves it running (clusterOwner.ts).
    await runtime?.embedded?.markStopping().catch((error: unknown) => logger.error({ err: error }, 'could not mark the cluster stopping'))
    await app?.close()
    await jobs?.stop()
    await runtime?.close()
    process.exit(0)
  } catch (error) {
    logger.error({ err: error }, 'orderly stop failed')
    await stopClusterNow()
    process.exit(1)
  }
}
// Installed before anything starts, so a signal during boot still stops what boot has opened.
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))

async function boot(): Promise<void> {
  armCrashPoint(config.CRASH_AT)
  runtime = await openRuntime(config, { info: (m) => logger.info(m), error: (o, m) => logger.error(o, m) }, { takeOverEmbedded: true })
  if (stopping) return
  await runtime.runner.start()
  // Subscriber and dispatcher; runtime.close() stops them before the store closes.
  await runtime.webhooks.start({
    tuning: {
      requestTimeoutMs: config.WEBHOOK_REQUEST_TIMEOUT_MS,
      ...(config.WEBHOOK_LEASE_MS ? { leaseMs: config.WEBHOOK_LEASE_MS } : {}),
    },
  })
  await ensureDemoOrganization(runtime, (line) => process.stdout.write(`${line}\n`))
  if (stopping) return
  app = await buildApp(runtime, logger)
  await app.listen({ port: config.PORT, host: config.HOST })
  // The scheduler, the purges and the embedded cluster's check (server/backgroundJobs.ts); stopped before the runtime closes.
  jobs = startBackgroundJobs({
    db: runtime.db,
    schedulerDb: runtime.schedulerDb,
    commands: runtime.commands,
    auditSealing: runtime.auditSealing,
    ...(runtime.embedded ? { embedded: runtime.embedded } : {}),
    log: logger,
  })
}

const booting: Promise<void> = boot().catch(async (error: unknown) => {
  // A failed boot still stops the cluster it owns (the next start would take it over anyway).
  logger.fatal({ err: error }, 'start-up failed')
  stopping = true
  await runtime?.close().catch(() => stopClusterNow())
  process.exit(1)
})
