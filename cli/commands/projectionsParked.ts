// `projections parked [--consumer <name>] [--limit N]`: the dead letters of parked streams, by group,
// consumer, stream and position (the order a replay applies them in): the event a consumer failed on
// ('failed', with the error and its attempts) and the later events of its stream waiting behind it
// ('behind'); with the counts per consumer and the latest replays. Read-only.
import { parseArgs } from 'node:util'
import { type DeadLetter, DEAD_LETTER_LIMITS, countDeadLetters, listDeadLetters } from '../../events/consumers/deadLetters.js'
import { listParkedReplays } from '../../events/consumers/parkedReplays.js'
import { CONSUMER_NAMES } from '../../server/runtime.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'

export const PARKED_LIST_LIMITS = {
  /** Replays shown beside the letters, newest first. */
  recentReplays: 20,
  maxNameLength: 200,
} as const

/** A group's name (every consumer of it), or one consumer's. */
export function letterFilter(name: string | undefined): { group?: string; consumer?: string } {
  if (name === undefined) return {}
  return CONSUMER_NAMES.some((group) => group === name) ? { group: name } : { consumer: name }
}

export const printableLetter = (l: DeadLetter) => ({
  group: l.group,
  consumer: l.consumer,
  stream: l.stream,
  eventId: l.eventId,
  eventType: l.eventType,
  position: l.position,
  streamRevision: l.streamRevision.toString(),
  organizationId: l.organizationId,
  reason: l.reason,
  error: l.error,
  attempts: l.attempts,
  parkedAt: l.parkedAt.toISOString(),
})

export const projectionsParked: CliCommand = {
  words: ['projections', 'parked'],
  usage: `projections parked [--consumer <group or consumer>] [--limit <1-${DEAD_LETTER_LIMITS.maxListed}>]`,
  summary: 'list the dead letters of parked streams (consumer, stream, event, reason, error, attempts) and their replays',
  parse(argv) {
    const { values } = parseOrUsage(projectionsParked, () =>
      parseArgs({
        args: argv,
        options: { consumer: { type: 'string' }, limit: { type: 'string' } },
        strict: true,
        allowPositionals: false,
      }),
    )
    const limit = values.limit === undefined ? DEAD_LETTER_LIMITS.maxListed : Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > DEAD_LETTER_LIMITS.maxListed) {
      throw usageError(projectionsParked, `--limit must be an integer from 1 to ${DEAD_LETTER_LIMITS.maxListed}`)
    }
    const consumer = values.consumer
    if (consumer !== undefined && (consumer.length === 0 || consumer.length > PARKED_LIST_LIMITS.maxNameLength)) {
      throw usageError(projectionsParked, `--consumer must be 1 to ${PARKED_LIST_LIMITS.maxNameLength} characters`)
    }
    return async ({ runtime, out }) => {
      const letters = await listDeadLetters(runtime.db, letterFilter(consumer), limit)
      const counts = await countDeadLetters(runtime.db)
      const replays = await listParkedReplays(runtime.db, PARKED_LIST_LIMITS.recentReplays)
      await out.document({
        parked: letters.map(printableLetter),
        counts,
        replays: replays.map((r) => ({ ...r, replayedAt: r.replayedAt.toISOString() })),
      })
    }
  },
}
