// What a consumer group on the runtime (projectors, the webhook subscriber, workflows) does when it
// fails on an event: it applies the events before the failing one, so its checkpoints move up to it,
// then retries that one event with an exponential back-off, one log line per attempt, and a durable
// failure record that `projections status` and /health read. A failure that says the database or
// the event store is unreachable or contended (transientFailure.ts) is retried for as long as it
// lasts. Any other failure of one consumer on the same event, PARKING.attempts times, parks the
// event's stream for that consumer alone (a dead letter, parkedStreams.ts): the next attempt
// applies the event to the rest of the group and moves on. An operator's skip (consumer_skips) makes
// it pass over the event on its next attempt. stop() ends a back-off at once.
import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../store/port.js'
import { ConsumerFailedError } from './consumerFailedError.js'
import { clearFailure, hasFailure, loadSkippedIds, recordFailure } from './consumerRecords.js'
import { describeFailure } from './failureText.js'
import type { ParkRequest } from './parkedStreams.js'
import { isTransientFailure } from './transientFailure.js'

export const CONSUMER_BACKOFF = {
  initialMs: 100,
  maxMs: 60_000,
  /**
   * The longest wait between attempts while the failure is transient (the database restarting): a
   * retry then costs one failed connection, and every command's read model waits on the consumer,
   * so it comes back within this of the database, not a minute later.
   */
  transientMaxMs: 5_000,
} as const

export const PARKING = {
  /**
   * Failures of one consumer on one event, none of them transient, before that event's stream is
   * parked for it: enough to ride out a fluke, few enough that the group (every tenant) waits on
   * one bad event only through the first back-offs (100 + 200 ms by default).
   */
  attempts: 3,
} as const

export type ConsumerBackoff = { initialMs: number; maxMs: number; transientMaxMs: number }

/** Applies events to the group; `parks` are the events it gave up on, each for one consumer. */
export type GuardedApply = (events: RecordedEvent[], parks: readonly ParkRequest[]) => Promise<void>

/** The consumer to park `event` for, when the failure is its own and not transient. */
function poisonedConsumer(error: unknown, event: RecordedEvent): string | undefined {
  if (!(error instanceof ConsumerFailedError) || isTransientFailure(error.cause)) return undefined
  return error.eventId === undefined || error.eventId === event.id ? error.consumer : undefined
}

export type ConsumerLog = {
  info: (message: string) => void
  error: (fields: Record<string, unknown>, message: string) => void
}

/** Thrown out of a batch when the consumer stops during it; the subscription ends without applying it. */
export class ConsumerStoppedError extends Error {
  override readonly name = 'ConsumerStoppedError'
}

export type ConsumerHealth =
  { status: 'ok' } | { status: 'failing'; since: Date; attempts: number; eventId: string; eventType: string; position: string }

/** Delay before attempt `attempt + 1`: initial, doubling, capped (lower while the failure is transient). */
export function backoffDelayMs(backoff: ConsumerBackoff, attempt: number, transient = false): number {
  const cap = transient ? Math.min(backoff.maxMs, backoff.transientMaxMs) : backoff.maxMs
  return Math.min(backoff.initialMs * 2 ** Math.min(attempt - 1, 30), cap)
}

export type ConsumerGuard = ReturnType<typeof createConsumerGuard<unknown>>

export function createConsumerGuard<DB>(deps: {
  name: string
  db: Kysely<DB>
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
  /** Called when a failure starts (a runner releases its read-your-writes waiters). */
  onFailing?: () => void
}) {
  const backoff: ConsumerBackoff = { ...CONSUMER_BACKOFF, ...deps.backoff }
  let skipped = new Set<string>()
  let health: ConsumerHealth = { status: 'ok' }
  // A failure row exists (ours, or one an earlier run left): the next success deletes it.
  let recorded = false
  let stopped = false
  const wakers = new Set<() => void>()

  const stoppedError = () => new ConsumerStoppedError(`${deps.name} stopped`)

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      // A stop that came while the failure was being recorded: no back-off to interrupt, so none to start.
      if (stopped) return reject(stoppedError())
      const wake = () => {
        clearTimeout(timer)
        wakers.delete(wake)
        if (stopped) reject(stoppedError())
        else resolve()
      }
      const timer = setTimeout(wake, ms)
      wakers.add(wake)
    })
  }

  async function refreshSkips(): Promise<void> {
    try {
      skipped = await loadSkippedIds(deps.db, deps.name)
    } catch (error) {
      deps.log.error({ consumer: deps.name, error: describeFailure(error) }, 'consumer could not read its skips')
    }
  }

  async function recovered(): Promise<void> {
    if (health.status === 'failing') deps.log.info(`consumer ${deps.name} recovered after ${health.attempts} failed attempts`)
    health = { status: 'ok' }
    if (!recorded) return
    try {
      await clearFailure(deps.db, deps.name)
      recorded = false
    } catch (error) {
      // The database may still be coming back; the next success tries again.
      deps.log.error({ consumer: deps.name, error: describeFailure(error) }, 'consumer could not clear its failure record')
    }
  }

  async function failed(event: RecordedEvent, attempt: number, error: unknown, delayMs: number, parking: boolean): Promise<void> {
    const since = health.status === 'failing' && health.eventId === event.id ? health.since : new Date()
    const starting = health.status === 'ok'
    health = { status: 'failing', since, attempts: attempt, eventId: event.id, eventType: event.type, position: event.position }
    if (starting) deps.onFailing?.()
    const lastError = describeFailure(error)
    // One line per failed attempt: what failed and where, never the event's data nor a stack trace.
    deps.log.error(
      {
        consumer: deps.name,
        eventId: event.id,
        eventType: event.type,
        position: event.position,
        attempt,
        nextDelayMs: delayMs,
        ...(error instanceof ConsumerFailedError ? { handler: error.consumer } : {}),
        ...(isTransientFailure(error) ? { transient: true } : {}),
        error: lastError,
      },
      parking ? 'consumer failed on an event; parking its stream for that consumer' : 'consumer failed on an event; backing off',
    )
    try {
      await recordFailure(deps.db, {
        consumer: deps.name,
        failingSince: since,
        attempts: attempt,
        lastError,
        event: { id: event.id, type: event.type, position: event.position },
        nextAttemptAt: new Date(Date.now() + delayMs),
      })
      recorded = true
    } catch (recordError) {
      deps.log.error({ consumer: deps.name, error: describeFailure(recordError) }, 'consumer could not record its failure')
    }
  }

  function parked(event: RecordedEvent, park: ParkRequest): void {
    deps.log.error(
      {
        consumer: deps.name,
        handler: park.consumer,
        eventId: event.id,
        eventType: event.type,
        position: event.position,
        stream: event.stream,
        attempts: park.attempts,
        error: park.error,
      },
      'consumer parked a stream: its later events wait as dead letters until an operator replays them',
    )
  }

  /**
   * Retries one event until it passes (or is skipped), parking it for each consumer of the group
   * that keeps failing on it with a non-transient error; throws only when the consumer stops.
   */
  async function untilPassed(event: RecordedEvent, apply: GuardedApply, firstError: unknown): Promise<void> {
    let error = firstError
    const parks: ParkRequest[] = []
    const poisoned = new Map<string, number>()
    for (let attempt = 1; ; attempt++) {
      const consumer = poisonedConsumer(error, event)
      let parking = false
      if (consumer !== undefined && !parks.some((p) => p.consumer === consumer)) {
        const failures = (poisoned.get(consumer) ?? 0) + 1
        poisoned.set(consumer, failures)
        if (failures >= PARKING.attempts) {
          parks.push({ consumer, eventId: event.id, error: describeFailure(error), attempts: failures })
          parking = true
        }
      }
      // A park is tried at once; a failure to write it (the database gone) backs off like any other.
      const delayMs = parking ? 0 : backoffDelayMs(backoff, attempt, isTransientFailure(error))
      await failed(event, attempt, error, delayMs, parking)
      if (!parking) await sleep(delayMs)
      else if (stopped) throw stoppedError()
      await refreshSkips()
      if (skipped.has(event.id))
        deps.log.info(`consumer ${deps.name} passes over event ${event.id} at ${event.position}: an operator skipped it`)
      try {
        await apply([event], skipped.has(event.id) ? [] : parks)
        if (!skipped.has(event.id)) for (const park of parks) parked(event, park)
        return
      } catch (next) {
        if (stopped) throw stoppedError()
        error = next
      }
    }
  }

  return {
    async start(): Promise<void> {
      await refreshSkips()
      recorded = await hasFailure(deps.db, deps.name).catch(() => true)
    },

    isSkipped: (eventId: string): boolean => skipped.has(eventId),

    /** Applies a batch through `apply` (which must honour isSkipped), isolating and backing off on a failing event. */
    async handle(events: RecordedEvent[], apply: GuardedApply): Promise<void> {
      let rest = events
      while (rest.length > 0) {
        if (stopped) throw stoppedError()
        try {
          await apply(rest, [])
          break
        } catch (batchError) {
          if (stopped) throw stoppedError()
          if (rest.length === 1) {
            await untilPassed(rest[0]!, apply, batchError)
            break
          }
        }
        // The batch failed: apply its events one at a time up to the one that fails.
        let next = 0
        let failure: { error: unknown } | undefined
        for (; next < rest.length; next++) {
          try {
            await apply([rest[next]!], [])
          } catch (error) {
            if (stopped) throw stoppedError()
            failure = { error }
            break
          }
        }
        if (!failure) break
        await untilPassed(rest[next]!, apply, failure.error)
        rest = rest.slice(next + 1)
      }
      await recovered()
    },

    health: (): ConsumerHealth => health,
    failing: (): boolean => health.status === 'failing',

    /** Ends a back-off at once; the batch in hand then throws ConsumerStoppedError. */
    stop(): void {
      stopped = true
      for (const wake of [...wakers]) wake()
    },
  }
}
