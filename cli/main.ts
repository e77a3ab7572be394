// The operator and auditor CLI: `npm run -s cli -- <command>`. Results are JSON on stdout; failures a
// JSON error on stderr with exit 1 (2 for usage errors, followed by the usage text; 3 when another operation
// holds what the command needs, a rebuild of the same projection: nothing was done, try again later).
import type { Logger } from 'pino'
import { type CliCommand } from './command.js'
import { cliLogger, loadCliConfig, withRuntime } from './cliRuntime.js'
import { agentsDisable, agentsEnable } from './commands/agentsFeature.js'
import { auditCheckpoint } from './commands/auditCheckpoint.js'
import { auditExport } from './commands/auditExport.js'
import { auditVerify } from './commands/auditVerify.js'
import { customersErase } from './commands/customersErase.js'
import { eventsStream } from './commands/eventsStream.js'
import { dataSealExisting } from './commands/dataSealExisting.js'
import { draftsApprove, draftsReject } from './commands/draftsDecide.js'
import { fxConfigure } from './commands/fxConfigure.js'
import { keysCreate } from './commands/keysCreate.js'
import { keysRotateKek } from './commands/keysRotateKek.js'
import { liquidityConfigure } from './commands/liquidityConfigure.js'
import { ledgerVerify } from './commands/ledgerVerify.js'
import { listen } from './commands/listen.js'
import { orgsCreate } from './commands/orgsCreate.js'
import { projectionsParked } from './commands/projectionsParked.js'
import { projectionsParkedReplay } from './commands/projectionsParkedReplay.js'
import { projectionsRebuild } from './commands/projectionsRebuild.js'
import { projectionsRollback } from './commands/projectionsRollback.js'
import { projectionsSkip } from './commands/projectionsSkip.js'
import { projectionsStatus } from './commands/projectionsStatus.js'
import { projectionsVerify } from './commands/projectionsVerify.js'
import { snapshotsRebuild } from './commands/snapshotsRebuild.js'
import { suspenseList } from './commands/suspenseList.js'
import { suspenseResolve } from './commands/suspenseResolve.js'
import { snapshotsStatus } from './commands/snapshotsStatus.js'
import { timersParked } from './commands/timersParked.js'
import { timersRetry } from './commands/timersRetry.js'
import { trigger } from './commands/trigger.js'
import { EXIT, UsageError, errorBody, printError, stdoutOutput } from './output.js'

export const COMMANDS: readonly CliCommand[] = [
  orgsCreate,
  keysCreate,
  keysRotateKek,
  projectionsStatus,
  projectionsRebuild,
  projectionsRollback,
  projectionsVerify,
  projectionsSkip,
  // Before `projections parked`, whose words it starts with: the first match wins.
  projectionsParkedReplay,
  projectionsParked,
  snapshotsStatus,
  snapshotsRebuild,
  timersParked,
  timersRetry,
  eventsStream,
  customersErase,
  dataSealExisting,
  liquidityConfigure,
  fxConfigure,
  agentsEnable,
  agentsDisable,
  ledgerVerify,
  auditVerify,
  auditExport,
  auditCheckpoint,
  suspenseList,
  suspenseResolve,
  draftsApprove,
  draftsReject,
  listen,
  trigger,
]

const HELP_FLAGS = new Set(['help', '--help', '-h'])

function usageText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.words.join(' ').length))
  return [
    'usage: npm run -s cli -- <command> [arguments]',
    '       (-s keeps npm\'s "> tsx cli/main.ts" banner off stdout, so stdout is JSON only)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    'arguments:',
    ...COMMANDS.map((c) => `  ${c.usage}`),
    '',
    'Configuration comes from the environment, as for the server: DATABASE_URL, or the embedded',
    'PostgreSQL under DATA_DIR (default ./data); APP_ENV (sandbox); EVENTSTORE_URL; LOG_LEVEL (to stderr).',
    'listen and trigger call the HTTP API instead: PAYMENTS_API_KEY and PAYMENTS_BASE_URL (or --api-key, --base-url).',
  ].join('\n')
}

function findCommand(argv: string[]): CliCommand {
  const command = COMMANDS.find((c) => c.words.every((word, i) => argv[i] === word))
  if (command) return command
  const group = COMMANDS.filter((c) => c.words[0] === argv[0])
  if (argv.length === 0) throw new UsageError('no command given', usageText())
  if (group.length > 0) {
    throw new UsageError(
      `unknown ${argv[0]} command ${JSON.stringify(argv[1] ?? '')}; one of: ${group.map((c) => c.words.join(' ')).join(', ')}`,
      usageText(),
    )
  }
  throw new UsageError(`unknown command ${JSON.stringify(argv[0])}`, usageText())
}

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()))

async function main(argv: string[]): Promise<number> {
  let log: Logger | undefined
  try {
    if (argv.length > 0 && HELP_FLAGS.has(argv[0]!)) {
      process.stderr.write(`${usageText()}\n`)
      return EXIT.ok
    }
    const command = findCommand(argv)
    const work = command.parse(argv.slice(command.words.length))
    const config = loadCliConfig()
    log = cliLogger(config.LOG_LEVEL)
    const logger = log
    if ('offline' in work) await work.offline({ out: stdoutOutput, log: logger })
    else await withRuntime(config, logger, (runtime) => work({ runtime, out: stdoutOutput, log: logger }))
    return EXIT.ok
  } catch (error) {
    const { body, exitCode } = errorBody(error)
    if (body.error === 'internal_error') log?.debug({ err: error }, 'command failed')
    await printError(body)
    if (error instanceof UsageError) process.stderr.write(`\n${error.usage}\n`)
    return exitCode
  }
}

const code = await main(process.argv.slice(2))
// Exit explicitly: a library timer must not keep a finished command alive; flush output first.
await Promise.all([flushed(process.stdout), flushed(process.stderr)])
process.exit(code)
