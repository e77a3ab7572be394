// `projections skip <consumer> <eventId> --reason "<why>" [--actor <who>]`: the operator's way past
// an event a consumer cannot apply, without editing the event log. It writes an audit record (who,
// why, when, which event at which position, for which consumer); the consumer passes over exactly
// that event on its next attempt, and rebuilds pass over it too. The event must still lie ahead of
// the consumer, or be parked for it (a dead letter: a replay then passes over it and applies the
// letters behind it): a skip of something already applied would only mislead a later reader.
import { parseArgs } from 'node:util'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import { START, STORE_LIMITS } from '../../events/store/port.js'
import { readCheckpoints } from '../../events/consumers/checkpoints.js'
import { CONSUMER_RECORD_LIMITS, listFailures, listSkips, recordSkip } from '../../events/consumers/consumerRecords.js'
import { listDeadLetters } from '../../events/consumers/deadLetters.js'
import { CONSUMER_NAMES, type Runtime, consumerCheckpointNames } from '../../server/runtime.js'
import { auditText } from '../auditText.js'
import { cliActor } from '../cliRuntime.js'
import { isEventId } from '../eventId.js'
import { type CliCommand, parseOrUsage, usageError } from '../command.js'
import { CliError } from '../output.js'

export const SKIP_LIMITS = {
  /** Events searched past the consumer's checkpoint for the one to skip. */
  maxScannedEvents: 1_000_000,
} as const

/** Where the consumer stands: the lowest checkpoint of its group (every projector for the runner). */
async function checkpointOf(runtime: Runtime, consumer: string): Promise<Position> {
  const stored = await readCheckpoints(runtime.db)
  const positions = consumerCheckpointNames(consumer).map((name) => stored.get(name) ?? START)
  return positions.reduce((low, p) => (runtime.store.comparePositions(p, low) < 0 ? p : low), positions[0] ?? START)
}

async function findAhead(runtime: Runtime, from: Position, eventId: string): Promise<RecordedEvent | undefined> {
  let position = from
  for (let scanned = 0; scanned < SKIP_LIMITS.maxScannedEvents;) {
    const events = await runtime.store.readAll({ from: position || undefined, maxCount: STORE_LIMITS.maxReadCount })
    if (events.length === 0) return undefined
    const found = events.find((e) => e.id.toLowerCase() === eventId.toLowerCase())
    if (found) return found
    scanned += events.length
    position = events[events.length - 1]!.position
  }
  return undefined
}

export const projectionsSkip: CliCommand = {
  words: ['projections', 'skip'],
  usage: `projections skip <consumer> <eventId> --reason "<why>" [--actor <who>]   (consumer: ${CONSUMER_NAMES.join(' | ')})`,
  summary: 'make a consumer pass over one event it cannot apply, with an audit record (the event log is not changed)',
  parse(argv) {
    const { values, positionals } = parseOrUsage(projectionsSkip, () =>
      parseArgs({
        args: argv,
        options: { reason: { type: 'string' }, actor: { type: 'string' } },
        strict: true,
        allowPositionals: true,
      }),
    )
    if (positionals.length !== 2) throw usageError(projectionsSkip, 'a consumer and an event id are required')
    const [consumer, eventId] = positionals as [string, string]
    if (!CONSUMER_NAMES.some((name) => name === consumer)) {
      throw usageError(projectionsSkip, `unknown consumer ${JSON.stringify(consumer)}; valid names: ${CONSUMER_NAMES.join(', ')}`, {
        validNames: [...CONSUMER_NAMES],
      })
    }
    if (!isEventId(eventId))
      throw usageError(projectionsSkip, 'the event id must be a UUID (see `projections status`: consumers[].event.id)')
    const reason = auditText(projectionsSkip, 'reason', values.reason, CONSUMER_RECORD_LIMITS.maxReasonLength)
    if (reason === undefined) throw usageError(projectionsSkip, '--reason is required: say why, for the audit record')
    const actor = auditText(projectionsSkip, 'actor', values.actor, CONSUMER_RECORD_LIMITS.maxActorLength) ?? cliActor()

    return async ({ runtime, out, log }) => {
      const existing = (await listSkips(runtime.db)).find((s) => s.consumer === consumer && s.eventId === eventId.toLowerCase())
      if (existing) {
        await out.document({ ...existing, createdAt: existing.createdAt.toISOString(), alreadyRecorded: true })
        return
      }
      // The event the consumer is stuck on is known from its failure record, a parked one from its
      // dead letter; any other must lie ahead.
      const failure = (await listFailures(runtime.db)).find((f) => f.consumer === consumer && f.event.id === eventId.toLowerCase())
      const [letter] = await listDeadLetters(runtime.db, { group: consumer, eventId: eventId.toLowerCase() }, 1)
      const event = failure
        ? { id: failure.event.id, type: failure.event.type, position: failure.event.position }
        : letter
          ? { id: letter.eventId, type: letter.eventType, position: letter.position }
          : await findAhead(runtime, await checkpointOf(runtime, consumer), eventId)
      if (!event) {
        throw new CliError(
          'event_not_ahead',
          `No event ${eventId} lies ahead of consumer ${consumer} or is parked for it: it has been applied already, or it does not exist`,
          { consumer, eventId },
        )
      }
      await recordSkip(runtime.db, { consumer, eventId: event.id, eventType: event.type, position: event.position, reason, actor })
      log.warn({ consumer, eventId: event.id, eventType: event.type, position: event.position, actor }, 'skip recorded')
      const recorded = (await listSkips(runtime.db)).find((s) => s.consumer === consumer && s.eventId === event.id)!
      await out.document({ ...recorded, createdAt: recorded.createdAt.toISOString(), alreadyRecorded: false })
    }
  },
}
