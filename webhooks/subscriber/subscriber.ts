// The webhook subscriber: one $all subscription from its stored checkpoint, turning events into
// messages and deliveries (storeBatch), and a bounded wait for "the messages of position P exist".
import type { Kysely } from 'kysely'
import type { PublicEventMapper } from '../../domain/publicEvents.js'
import type { EventStore, Position, Subscription } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { readSubscriberCheckpoint, storeBatch } from './storeBatch.js'

export type WebhookSubscriber = ReturnType<typeof createWebhookSubscriber>

export function createWebhookSubscriber(deps: {
  db: Kysely<ReadDatabase>
  store: EventStore
  mappers: readonly PublicEventMapper[]
  schedule: RetrySchedule
  /** Called after a batch created deliveries, to wake the dispatcher in this process. */
  onDeliveries: () => void
  onError: (error: unknown, message: string) => void
}) {
  let position: Position = START
  let subscription: Subscription | undefined
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>()
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
      const from = await readSubscriberCheckpoint(deps.db)
      advance(from)
      subscription = deps.store.subscribeToAll({ from: from || undefined, batchSize: WEBHOOK_LIMITS.subscriberBatchSize }, {
        onEvents: async (events) => {
          try {
            const result = await storeBatch(deps.db, events, {
              mappers: deps.mappers,
              schedule: deps.schedule,
              comparePositions: deps.store.comparePositions,
              onCapped: (organizationId, count) => deps.onError(new Error(`fan-out capped at ${WEBHOOK_LIMITS.maxEndpointsPerFanOut} of ${count} endpoints`), `webhook messages of ${organizationId}`),
            })
            advance(result.position)
            if (result.deliveries > 0) deps.onDeliveries()
          } catch (error) {
            deps.onError(error, 'webhook subscriber batch failed; retrying')
            throw error
          }
        },
      })
    },

    /** Resolves true once messages up to `target` are stored, false after `timeoutMs` or when not running. */
    waitFor(target: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!target || reached(target)) return Promise.resolve(true)
      if (!subscription || waiters.size >= WEBHOOK_LIMITS.maxSubscriberWaiters) return Promise.resolve(false)
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
      await current?.stop()
      for (const w of waiters) w.resolve(false)
      waiters.clear()
    },
  }
}
