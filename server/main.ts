// Process start-up: configuration, database and event store, projections, first-start demo
// organization, HTTP server, and an orderly stop on SIGINT/SIGTERM.
import { buildApp } from './app.js'
import { loadConfig } from './config.js'
import { ensureDemoOrganization } from './firstStart.js'
import { purgeExpiredIdempotencyKeys } from './idempotency/idempotency.js'
import { startCustomerTimers } from './customerRoutes.js'
import { createLogger } from './logger.js'
import { openRuntime } from './runtime.js'

const PURGE_INTERVAL_MS = 60 * 60 * 1000
const SHUTDOWN_TIMEOUT_MS = 15_000

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL)
const runtime = await openRuntime(config, { info: (m) => logger.info(m), error: (o, m) => logger.error(o, m) })
await runtime.runner.start()
// Subscriber, dispatcher and retention job; runtime.close() stops them before the store closes.
await runtime.webhooks.start()
await ensureDemoOrganization(runtime, (line) => process.stdout.write(`${line}\n`))
const app = await buildApp(runtime, logger)
await app.listen({ port: config.PORT, host: config.HOST })
const customerTimers = startCustomerTimers(runtime, (error) => logger.error({ err: error }, 'verification session expiry failed'))

const purge = setInterval(() => {
  purgeExpiredIdempotencyKeys(runtime.db).catch((error: unknown) => logger.error({ err: error }, 'idempotency purge failed'))
}, PURGE_INTERVAL_MS)
purge.unref()

let stopping = false
async function stop(signal: string): Promise<void> {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'stopping')
  const timer = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS)
  timer.unref()
  await app.close()
  await customerTimers.stop()
  await runtime.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
