// The webhook subscriber: one $all subscription from its stored checkpoint, turning events into
// messages and deliveries (storeBatch), and a bounded wait for "the messages of position P exist".
// An event it cannot store does not stop it in a tight loop: the consumer guard applies what comes
// before it, backs off on it and records the failure (projections/runtime/consumerGuard.ts).
import type { Kysely } from 'kysely'
import type { PublicEventMapper } from '../../domain/publicEvents.js'
import type { EventStore, Position, RecordedEvent, Subscription } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import { type ConsumerBackoff, type ConsumerGuard, type ConsumerLog, createConsumerGuard } from '../../projections/runtime/consumerGuard.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { SUBSCRIBER_CHECKPOINT, readSubscriberCheckpoint, storeBatch } from './storeBatch.js'

export type WebhookSubscriber = ReturnType<typeof createWebhookSubscriber>

export function createWebhookSubscriber(deps: {
  db: Kysely<ReadDatabase>
  store: EventStore
  mappers: readonly PublicEventMapper[]
  schedule: RetrySchedule
  /** Called after a batch created deliveries, to wake the dispatcher in this process. */
  onDeliveries: () => void
  onError: (error: unknown, message: string) => void
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
}) {
  let position: Position = START
  let subscription: Subscription | undefined
  let guard: ConsumerGuard | undefined
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>()
  const releaseWaiters = () => {
    for (const w of waiters) w.resolve(false)
    waiters.clear()
  }
  const reached = (target: Position) => deps.store.comparePositions(position, target) >= 0

  function advance(to: Position): void {
    if (deps.store.comparePositions(to, position) > 0) position = to
    for (const w of [...waiters]) {
      if (reached(w.position)) {
        waiters.delete(w)
        w.resolve(true)
      }
    }
  }

  return {
    running: () => subscription !== undefined,

    async start(): Promise<void> {
      if (subscription) return
      const current = createConsumerGuard({ name: SUBSCRIBER_CHECKPOINT, db: deps.db, log: deps.log, backoff: deps.backoff, onFailing: releaseWaiters })
      await current.start()
      guard = current
      const from = await readSubscriberCheckpoint(deps.db)
      advance(from)
      const apply = async (events: RecordedEvent[]) => {
        const result = await storeBatch(deps.db, events, {
          mappers: deps.mappers,
          schedule: deps.schedule,
          comparePositions: deps.store.comparePositions,
          onCapped: (organizationId, count) => deps.onError(new Error(`fan-out capped at ${WEBHOOK_LIMITS.maxEndpointsPerFanOut} of ${count} endpoints`), `webhook messages of ${organizationId}`),
          isSkipped: current.isSkipped,
        })
        advance(result.position)
        if (result.deliveries > 0) deps.onDeliveries()
      }
      subscription = deps.store.subscribeToAll({ from: from || undefined, batchSize: WEBHOOK_LIMITS.subscriberBatchSize }, {
        onEvents: (events) => current.handle(events, apply),
      })
    },

    /** Resolves true once messages up to `target` are stored, false after `timeoutMs` or when not running. */
    waitFor(target: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!target || reached(target)) return Promise.resolve(true)
      if (!subscription || guard?.failing() || waiters.size >= WEBHOOK_LIMITS.maxSubscriberWaiters) return Promise.resolve(false)
      return new Promise((resolve) => {
        const waiter = {
          position: target,
          resolve: (ok: boolean) => {
            clearTimeout(timer)
            resolve(ok)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          resolve(false)
        }, timeoutMs)
        waiters.add(waiter)
      })
    },

    async stop(): Promise<void> {
      const current = subscription
      subscription = undefined
      // The subscription first (it stops asking for batches), then the guard (a back-off ends at once).
      const stopping = current?.stop()
      guard?.stop()
      await stopping
      releaseWaiters()
    },
  }
}
