// `projections status`: each projector's, workflow's and the webhook subscriber's checkpoint and lag, each
// consumer group's health (failing since, attempts, last error, the event it is stuck on; how many
// dead letters it holds), the letters per consumer (`projections parked` lists them), and the
// operator's skips. Lag counts only events the consumer handles and has not been told to skip, so
// a caught-up system shows 0 (a parked event lies behind the checkpoint: a letter, not lag).
// Read-only: it runs no consumer, so it shows what the server's have.
import { parseArgs } from 'node:util'
import { allWorkflows } from '../../commands/workflows/allWorkflows.js'
import { workflowCheckpointName } from '../../commands/workflows/workflowConsumer.js'
import { WORKFLOWS_CONSUMER } from '../../commands/workflows/workflowRunner.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import { START, STORE_LIMITS } from '../../events/store/port.js'
import { allProjectors } from '../../projections/allProjectors.js'
import { PROJECTIONS_CONSUMER } from '../../projections/runtime/projectionRunner.js'
import { readCheckpoints } from '../../events/consumers/checkpoints.js'
import { eventsHead } from '../../projections/runtime/eventsHead.js'
import { listFailures, listSkips } from '../../events/consumers/consumerRecords.js'
import { countDeadLetters } from '../../events/consumers/deadLetters.js'
import { CONSUMER_NAMES } from '../../server/runtime.js'
import { publicEventMappers } from '../../webhooks/publicEventMappers.js'
import { subscriberHandles } from '../../webhooks/subscriber/handledEvents.js'
import { SUBSCRIBER_CHECKPOINT } from '../../webhooks/subscriber/storeBatch.js'
import { type CliCommand, parseOrUsage } from '../command.js'

export const STATUS_LIMITS = {
  /** Events counted past the lowest checkpoint; beyond it the lags are lower bounds. */
  maxScannedEvents: 1_000_000,
} as const

type Counted = { name: string; consumer: string; position: Position; handles: (event: RecordedEvent) => boolean; lag: number }

export const projectionsStatus: CliCommand = {
  words: ['projections', 'status'],
  usage: 'projections status',
  summary: "print each consumer's checkpoint, lag, health and skipped events",
  parse(argv) {
    parseOrUsage(projectionsStatus, () => parseArgs({ args: argv, options: {}, strict: true, allowPositionals: false }))
    return async ({ runtime, out }) => {
      const stored = await readCheckpoints(runtime.db)
      // Inline, every projector's rows are committed with the events: they are at the head, with no lag.
      const inlineAt = runtime.projectionMode === 'inline' ? await eventsHead(runtime.db) : undefined
      const skips = await listSkips(runtime.db)
      const skipKeys = new Set(skips.map((s) => `${s.consumer}/${s.eventId}`))
      const skipped = (consumer: string, event: RecordedEvent) => skipKeys.has(`${consumer}/${event.id}`)
      const counted: Counted[] = [
        ...allProjectors.map((p) => ({
          name: p.name,
          consumer: PROJECTIONS_CONSUMER,
          position: inlineAt ?? stored.get(p.name) ?? START,
          handles: (e: RecordedEvent) => p.handles.has(e.type),
          lag: 0,
        })),
        ...allWorkflows.map((w) => ({
          name: workflowCheckpointName(w),
          consumer: WORKFLOWS_CONSUMER,
          position: stored.get(workflowCheckpointName(w)) ?? START,
          handles: (e: RecordedEvent) => w.handles.has(e.type),
          lag: 0,
        })),
        {
          name: SUBSCRIBER_CHECKPOINT,
          consumer: SUBSCRIBER_CHECKPOINT,
          position: stored.get(SUBSCRIBER_CHECKPOINT) ?? START,
          handles: (e: RecordedEvent) => subscriberHandles(publicEventMappers, e),
          lag: 0,
        },
      ]

      // One pass from the lowest checkpoint to the head counts every consumer's lag; the port has
      // no "last event" read, so the head is the last event of that pass (or the checkpoint itself).
      // It is the last event readable in commit order: one whose transaction committed after a
      // still-running older writer's shows once that writer ends, as the consumers see it.
      const compare = (a: Position, b: Position) => runtime.store.comparePositions(a, b)
      const lowest = counted.reduce((low, c) => (compare(c.position, low) < 0 ? c.position : low), counted[0]!.position)
      let head: Position = lowest
      let scanned = 0
      let complete = true
      for (;;) {
        if (scanned >= STATUS_LIMITS.maxScannedEvents) {
          complete = false
          break
        }
        const events = await runtime.store.readAll({ from: head || undefined, maxCount: STORE_LIMITS.maxReadCount })
        if (events.length === 0) break
        for (const event of events) {
          for (const c of counted) {
            if (compare(event.position, c.position) > 0 && c.handles(event) && !skipped(c.consumer, event)) c.lag += 1
          }
        }
        scanned += events.length
        head = events[events.length - 1]!.position
      }
      const failures = await listFailures(runtime.db)
      const parked = await countDeadLetters(runtime.db)
      // A group's letters and how many of them failed, shown only when it has some (as a failure's fields only while failing).
      const parkedOf = (group: string) => {
        const mine = parked.filter((p) => p.group === group)
        if (mine.length === 0) return {}
        return { parked: mine.reduce((n, p) => n + p.letters, 0), parkedFailed: mine.reduce((n, p) => n + p.failed, 0) }
      }
      const lagOf = (c: Counted) => ({ name: c.name, position: c.position || null, lag: c.lag })
      await out.document({
        head: head || null,
        projectionMode: runtime.projectionMode,
        // False when the scan stopped at its bound: the head is not the real head, the lags are minimums.
        complete,
        projections: counted.filter((c) => c.consumer === PROJECTIONS_CONSUMER).map(lagOf),
        workflows: counted.filter((c) => c.consumer === WORKFLOWS_CONSUMER).map(lagOf),
        webhookSubscriber: lagOf(counted.find((c) => c.consumer === SUBSCRIBER_CHECKPOINT)!),
        consumers: CONSUMER_NAMES.map((name) => {
          const failure = failures.find((f) => f.consumer === name)
          if (!failure) return { name, status: parked.some((p) => p.group === name) ? 'parked' : 'ok', ...parkedOf(name) }
          return {
            name,
            status: 'failing',
            ...parkedOf(name),
            failingSince: failure.failingSince.toISOString(),
            attempts: failure.attempts,
            lastError: failure.lastError,
            event: failure.event,
            nextAttemptAt: failure.nextAttemptAt.toISOString(),
            updatedAt: failure.updatedAt.toISOString(),
          }
        }),
        // Dead letters per consumer (`projections parked` lists them, `projections parked replay` applies them).
        parked,
        skips: skips.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
      })
    }
  },
}
