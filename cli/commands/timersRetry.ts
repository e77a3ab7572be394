// `timers retry <id>`: sends one parked timer back to the scheduler's workers with a fresh set of
// attempts (after the operator fixed what made it fail). Its command still runs at most once.
import { parseArgs } from 'node:util'
import { retryParkedCommand } from '../../commands/scheduler/parkedCommands.js'
import { SCHEDULER_LIMITS } from '../../commands/scheduler/limits.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { CliError } from '../output.js'

export const timersRetry: CliCommand = {
  words: ['timers', 'retry'],
  usage: 'timers retry <timerId>   (an id from `timers parked`)',
  summary: 'send a parked timer back to the scheduler with fresh attempts',
  parse(argv) {
    const { positionals } = parseOrUsage(timersRetry, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }))
    if (positionals.length !== 1) throw usageError(timersRetry, 'exactly one timer id is required')
    const id = positionals[0]!
    if (id.length === 0 || id.length > SCHEDULER_LIMITS.maxIdLength) {
      throw usageError(timersRetry, `the timer id must be 1 to ${SCHEDULER_LIMITS.maxIdLength} characters`)
    }
    return async ({ runtime, out }) => {
      if (!(await retryParkedCommand(runtime.schedulerDb, id))) {
        throw new CliError('timer_not_parked', `no parked timer ${JSON.stringify(id)} (see \`timers parked\`)`, { id })
      }
      await out.document({ id, status: 'PENDING', retried: true })
    }
  },
}
