// What a consumer on the runtime (projectors, the webhook subscriber, workflows) does when it fails on an event:
// it applies the events before the failing one, so its checkpoint moves up to it, then retries that
// one event with an exponential back-off, one log line per attempt, and a durable failure record
// that `projections status` and /health read. An operator's skip (consumer_skips) makes it pass
// over the event on its next attempt. stop() ends a back-off at once.
import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../store/port.js'
import { clearFailure, hasFailure, loadSkippedIds, recordFailure } from './consumerRecords.js'
import { describeFailure } from './failureText.js'

export const CONSUMER_BACKOFF = {
  initialMs: 100,
  maxMs: 60_000,
} as const

export type ConsumerBackoff = { initialMs: number; maxMs: number }

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

/** Delay before attempt `attempt + 1`: initial, doubling, capped. */
export function backoffDelayMs(backoff: ConsumerBackoff, attempt: number): number {
  return Math.min(backoff.initialMs * 2 ** Math.min(attempt - 1, 30), backoff.maxMs)
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

  async function failed(event: RecordedEvent, attempt: number, error: unknown, delayMs: number): Promise<void> {
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
        error: lastError,
      },
      'consumer failed on an event; backing off',
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

  /** Retries one event until it passes (or is skipped); throws only when the consumer stops. */
  async function untilPassed(event: RecordedEvent, apply: (events: RecordedEvent[]) => Promise<void>, firstError: unknown): Promise<void> {
    let error = firstError
    for (let attempt = 1; ; attempt++) {
      const delayMs = backoffDelayMs(backoff, attempt)
      await failed(event, attempt, error, delayMs)
      await sleep(delayMs)
      await refreshSkips()
      if (skipped.has(event.id))
        deps.log.info(`consumer ${deps.name} passes over event ${event.id} at ${event.position}: an operator skipped it`)
      try {
        await apply([event])
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
    async handle(events: RecordedEvent[], apply: (events: RecordedEvent[]) => Promise<void>): Promise<void> {
      let rest = events
      while (rest.length > 0) {
        if (stopped) throw stoppedError()
        try {
          await apply(rest)
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
            await apply([rest[next]!])
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
