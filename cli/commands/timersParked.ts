// `timers parked`: the scheduler's parked timers (commands that failed every attempt, or could never
// run), oldest first, for an operator to read before sending one back with `timers retry`.
import { parseArgs } from 'node:util'
import { PARKED_LIMITS, listParkedCommands } from '../../commands/scheduler/parkedCommands.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

export const timersParked: CliCommand = {
  words: ['timers', 'parked'],
  usage: `timers parked [--limit <1-${PARKED_LIMITS.maxListed}>]`,
  summary: 'list the scheduler timers parked after failing every attempt (id, stream, attempts, last error)',
  parse(argv) {
    const { values } = parseOrUsage(timersParked, () =>
      parseArgs({ args: argv, options: { limit: { type: 'string' } }, strict: true, allowPositionals: false }),
    )
    const limit = values.limit === undefined ? PARKED_LIMITS.maxListed : Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > PARKED_LIMITS.maxListed) {
      throw usageError(timersParked, `--limit must be an integer from 1 to ${PARKED_LIMITS.maxListed}`)
    }
    return async ({ runtime, out }) => {
      const parked = await listParkedCommands(runtime.schedulerDb, limit)
      await out.document({
        parked: parked.map((p) => ({ ...p, dueAt: p.dueAt.toISOString(), parkedAt: p.parkedAt.toISOString() })),
      })
    }
  },
}
