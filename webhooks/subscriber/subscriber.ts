// The webhook subscriber: a consumer on the consumer runtime (events/consumers/) turning events
// into messages and deliveries (storeBatch), with a bounded wait for "the messages of position P
// exist". Its batches commit synchronously: a delivery, once acknowledged, must survive a crash.
import type { Kysely } from 'kysely'
import type { Consumer } from '../../events/consumers/consumer.js'
import type { ConsumerBackoff, ConsumerLog } from '../../events/consumers/consumerGuard.js'
import { createConsumerRuntime } from '../../events/consumers/consumerRuntime.js'
import type { EventStore, Position } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import type { PublicEventLookup } from '../publicEventMappers.js'
import { SUBSCRIBER_CHECKPOINT, storeBatch } from './storeBatch.js'

export type WebhookSubscriber = ReturnType<typeof createWebhookSubscriber>

export function createWebhookSubscriber(deps: {
  db: Kysely<ReadDatabase>
  store: EventStore
  mappers: PublicEventLookup
  schedule: RetrySchedule
  /** Called after a batch created deliveries, to wake the dispatcher in this process. */
  onDeliveries: () => void
  onError: (error: unknown, message: string) => void
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
  protection: DataProtection
}) {
  // Deliveries created by batches since the last wake; read once the batch committed.
  let created = 0
  const consumer: Consumer<ReadDatabase> = {
    name: SUBSCRIBER_CHECKPOINT,
    // Every event: a message's type comes from the public-event mappers, not from a list.
    apply: async (trx, events) => {
      created += await storeBatch(trx, events, {
        mappers: deps.mappers,
        schedule: deps.schedule,
        protection: deps.protection,
        onCapped: (organizationId, count) => {
          const capped = new Error(`fan-out capped at ${WEBHOOK_LIMITS.maxEndpointsPerFanOut} of ${count} endpoints`)
          deps.onError(capped, `webhook messages of ${organizationId}`)
        },
      })
    },
  }
  const runtime = createConsumerRuntime({
    name: SUBSCRIBER_CHECKPOINT,
    store: deps.store,
    db: deps.db,
    consumers: [consumer],
    log: deps.log,
    backoff: deps.backoff,
    batchSize: WEBHOOK_LIMITS.subscriberBatchSize,
    maxWaiters: WEBHOOK_LIMITS.maxSubscriberWaiters,
    onApplied: () => {
      if (created === 0) return
      created = 0
      deps.onDeliveries()
    },
  })

  return {
    running: runtime.running,
    start: runtime.start,
    stop: runtime.stop,
    health: runtime.health,
    /** Replays its dead letters (works without start: the CLI replays them). */
    replayParked: runtime.replayParked,

    /** Resolves true once messages up to `target` are stored, false after `timeoutMs` or when not running. */
    waitFor(target: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!target || runtime.reached(target)) return Promise.resolve(true)
      if (!runtime.running()) return Promise.resolve(false)
      return runtime.waitFor(target, timeoutMs)
    },
  }
}
