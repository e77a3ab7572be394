// The shape of one CLI command. Parsing is separate from running so a usage error is reported
// before any database is opened (and before an embedded cluster is started for nothing).
import type { Runtime } from '../server/runtime.js'
import type { Logger } from 'pino'
import { type Output, UsageError } from './output.js'

/** What a CLI command runs with: the opened runtime, its output and its log. */
export type CliRunContext = { runtime: Runtime; out: Output; log: Logger }

/** Work that needs no database (a check of an exported file): run without opening the runtime. */
export type OfflineWork = { offline: (context: Omit<CliRunContext, 'runtime'>) => Promise<void> }

export type CliCommand = {
  /** The words that name it, for example ['orgs', 'create']. */
  words: readonly string[]
  /** One usage line, without the program name. */
  usage: string
  summary: string
  /** Validates the arguments after the command words (throws UsageError) and returns the work. */
  parse(argv: string[]): ((context: CliRunContext) => Promise<void>) | OfflineWork
}

/** Runs node:util parseArgs (strict) and turns its errors into usage errors naming the command. */
export function parseOrUsage<T>(command: Pick<CliCommand, 'usage'>, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    throw usageError(command, error instanceof Error ? error.message : String(error))
  }
}

export function usageError(command: Pick<CliCommand, 'usage'>, message: string, extra: Record<string, unknown> = {}): UsageError {
  return new UsageError(message, `usage: npm run -s cli -- ${command.usage}`, extra)
}
