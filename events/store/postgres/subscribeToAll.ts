// Catch-up then live subscription to $all. Wakes on an in-process signal or a NOTIFY from another
// process, both carrying the last committed position; while that position is ahead of what is
// readable (an older transaction is still open) it polls with a short backoff.
import type { Position, RecordedEvent, Subscription, SubscriptionHandler } from '../port.js'
import { START } from '../port.js'

export const SUBSCRIPTION_LIMITS = {
  idlePollMs: 250,
  minRetryMs: 1,
  maxRetryMs: 50,
  maxBatchSize: 1_000,
  maxBackoffAfterErrorMs: 5_000,
} as const

export type CommitSignal = {
  /** Highest position known to be committed. */
  latest(): Position
  /** Resolves on the next commit signal or after `ms`. */
  wait(ms: number): Promise<void>
}

export function subscribeWithPolling(
  read: (from: Position, maxCount: number) => Promise<RecordedEvent[]>,
  signal: CommitSignal,
  options: { from?: Position; batchSize?: number; minBatchIntervalMs?: number; onError?: (error: unknown) => void },
  handler: SubscriptionHandler,
): Subscription {
  const batchSize = Math.min(options.batchSize ?? 500, SUBSCRIPTION_LIMITS.maxBatchSize)
  let position = options.from ?? START
  let stopped = false
  let caughtUp = false
  let wake: (() => void) | undefined

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })

  async function run(): Promise<void> {
    let retryMs: number = SUBSCRIPTION_LIMITS.minRetryMs
    let errorBackoffMs = 100
    while (!stopped) {
      try {
        const events = await read(position, batchSize)
        errorBackoffMs = 100
        if (events.length > 0) {
          // A position only grows: a read that goes back would deliver twice or out of order.
          if (position !== START && !(events[0]!.position > position)) {
            throw new Error(`subscription went back: read ${events[0]!.position} after ${position}`)
          }
          await handler.onEvents(events)
          position = events[events.length - 1]!.position
          retryMs = SUBSCRIPTION_LIMITS.minRetryMs
          // A partial batch means live: a subscriber that can wait lets the next commits gather.
          if (options.minBatchIntervalMs && events.length < batchSize) await sleep(options.minBatchIntervalMs)
          continue
        }
        // Caught up means every append known to be committed has been delivered, not merely that
        // nothing is readable yet (an open transaction elsewhere in the cluster holds reads back).
        if (!caughtUp && !(signal.latest() > position)) {
          caughtUp = true
          handler.onCaughtUp?.()
        }
        if (signal.latest() > position) {
          // Committed but not yet readable: an older transaction is still open. Poll soon.
          await Promise.race([sleep(retryMs), signal.wait(retryMs)])
          retryMs = Math.min(retryMs * 2, SUBSCRIPTION_LIMITS.maxRetryMs)
        } else {
          retryMs = SUBSCRIPTION_LIMITS.minRetryMs
          await Promise.race([sleep(SUBSCRIPTION_LIMITS.idlePollMs), signal.wait(SUBSCRIPTION_LIMITS.idlePollMs)])
        }
      } catch (error) {
        if (stopped) break
        options.onError?.(error)
        await sleep(errorBackoffMs)
        errorBackoffMs = Math.min(errorBackoffMs * 2, SUBSCRIPTION_LIMITS.maxBackoffAfterErrorMs)
      }
    }
  }

  const done = run()
  return {
    done,
    async stop() {
      stopped = true
      wake?.()
      await done
    },
  }
}
