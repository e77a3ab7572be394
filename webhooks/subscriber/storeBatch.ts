// The webhook subscriber's effect for one batch: apply endpoint events to the snapshots, store
// messages with their deliveries. It runs inside the consumer runtime's batch transaction, which
// also moves the checkpoint (events/consumers/applyBatch.ts): exactly once, like the projections.
import type { Kysely } from 'kysely'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { readCheckpoint } from '../../events/consumers/checkpoints.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import type { PublicEventLookup } from '../publicEventMappers.js'
import type { DataProtection } from '../../events/protection/dataProtection.js'
import { applyEndpointEvent, isEndpointEvent } from './endpointSnapshots.js'
import { newMessageOf } from './newMessage.js'
import { type NewMessage, storeMessages } from './storeMessages.js'

export const SUBSCRIBER_CHECKPOINT = 'webhook_messages'

export type BatchDeps = {
  mappers: PublicEventLookup
  schedule: RetrySchedule
  onCapped?: (organizationId: string, endpoints: number) => void
  /** Seals the signing secrets of the endpoint snapshots. */
  protection: DataProtection
}

export const readSubscriberCheckpoint = (db: Kysely<ReadDatabase>): Promise<Position> => readCheckpoint(db, SUBSCRIBER_CHECKPOINT)

/**
 * Stores the messages of a batch inside the consumer runtime's transaction (which moves the
 * checkpoint and passes over what was applied or skipped before); returns the deliveries created.
 */
export async function storeBatch(trx: Kysely<ReadDatabase>, events: RecordedEvent[], deps: BatchDeps): Promise<number> {
  let deliveries = 0
  // Messages are stored in runs; an endpoint event ends a run, so fan-out sees endpoints as they
  // were when each message's event was recorded.
  let run: NewMessage[] = []
  const flush = async () => {
    deliveries += await storeMessages(trx, run, deps.schedule, deps.onCapped)
    run = []
  }
  for (const event of events) {
    const data = event.data
    if (isEndpointEvent(event.type)) {
      await flush()
      await applyEndpointEvent(trx, { type: event.type, data } as WebhookEndpointEvent, deps.protection)
    }
    const message = newMessageOf(deps.mappers, event)
    if (message) run.push(message)
  }
  await flush()
  return deliveries
}
