// One subscriber batch in one transaction: lock the checkpoint row, skip what an earlier run
// (or another process) already handled, apply endpoint events, store messages with their
// deliveries, advance the checkpoint. The same exactly-once pattern as the projections.
import type { Kysely } from 'kysely'
import type { PublicEvent, PublicEventMapper } from '../../domain/publicEvents.js'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { isKnownEventType, parseEventData } from '../../events/catalog.js'
import type { Position, RecordedEvent } from '../../events/store/port.js'
import type { ReadDatabase } from '../../projections/schema.js'
import type { RetrySchedule } from '../dispatcher/retrySchedule.js'
import { boundedTags, buildEnvelope } from '../envelope.js'
import { targetEndpointOf } from '../publicEventMappers.js'
import { applyEndpointEvent, isEndpointEvent } from './endpointSnapshots.js'
import { type NewMessage, storeMessages } from './storeMessages.js'

export const SUBSCRIBER_CHECKPOINT = 'webhook_messages'

export type BatchDeps = {
  mappers: readonly PublicEventMapper[]
  schedule: RetrySchedule
  comparePositions: (a: Position, b: Position) => number
  onCapped?: (organizationId: string, endpoints: number) => void
  /** Events an operator skipped: the checkpoint moves past them, nothing else happens. */
  isSkipped?: (eventId: string) => boolean
}

async function lockCheckpoint(trx: Kysely<ReadDatabase>): Promise<Position> {
  await trx.insertInto('webhook_subscriber_checkpoints').values({ name: SUBSCRIBER_CHECKPOINT, position: '', updated_at: new Date() })
    .onConflict((oc) => oc.column('name').doNothing()).execute()
  const row = await trx.selectFrom('webhook_subscriber_checkpoints').select('position')
    .where('name', '=', SUBSCRIBER_CHECKPOINT).forUpdate().executeTakeFirstOrThrow()
  return row.position as Position
}

export async function readSubscriberCheckpoint(db: Kysely<ReadDatabase>): Promise<Position> {
  const row = await db.selectFrom('webhook_subscriber_checkpoints').select('position').where('name', '=', SUBSCRIBER_CHECKPOINT).executeTakeFirst()
  return (row?.position ?? '') as Position
}

/** A stored event maps to at most one public event; two mappers claiming one is a bug. */
function toPublicEvent(mappers: readonly PublicEventMapper[], event: RecordedEvent, data: Record<string, unknown>): PublicEvent | undefined {
  let found: PublicEvent | undefined
  for (const map of mappers) {
    const mapped = map({ type: event.type, data, recordedAt: event.recordedAt })
    if (!mapped) continue
    if (found) throw new Error(`Stored event type ${event.type} is mapped by two public event mappers`)
    found = mapped
  }
  return found
}

/** Returns the checkpoint after the batch and how many deliveries it created. */
export async function storeBatch(db: Kysely<ReadDatabase>, events: RecordedEvent[], deps: BatchDeps): Promise<{ position: Position; deliveries: number }> {
  return db.transaction().execute(async (trx) => {
    const stored = await lockCheckpoint(trx)
    const fresh = events.filter((e) => deps.comparePositions(e.position, stored) > 0)
    if (fresh.length === 0) return { position: stored, deliveries: 0 }
    let deliveries = 0
    // Messages are stored in runs; an endpoint event ends a run, so fan-out sees endpoints as they
    // were when each message's event was recorded.
    let run: NewMessage[] = []
    const flush = async () => {
      deliveries += await storeMessages(trx, run, deps.schedule, deps.onCapped)
      run = []
    }
    for (const event of fresh) {
      if (deps.isSkipped?.(event.id)) continue
      // Unregistered types (benchmarks, tests) reach mappers as stored; registered ones parsed and upcast.
      const data = isKnownEventType(event.type) ? parseEventData(event.type, event.data) : event.data
      if (isEndpointEvent(event.type)) {
        await flush()
        await applyEndpointEvent(trx, { type: event.type, data } as WebhookEndpointEvent)
      }
      const publicEvent = toPublicEvent(deps.mappers, event, data)
      if (!publicEvent) continue
      const organizationId = event.metadata.organizationId
      if (!organizationId) throw new Error(`Event ${event.id} (${event.type}) has a public type but no organizationId in its metadata`)
      const { envelope, body } = buildEnvelope({ storedEventId: event.id, recordedAt: event.recordedAt, organizationId, event: publicEvent })
      run.push({
        id: envelope.id,
        organizationId,
        eventType: envelope.type,
        body,
        tags: boundedTags(publicEvent.tags),
        targetEndpointId: targetEndpointOf(event.type, data) ?? null,
        createdAt: event.recordedAt,
      })
    }
    await flush()
    const last = fresh[fresh.length - 1]!.position
    await trx.updateTable('webhook_subscriber_checkpoints').set({ position: last, updated_at: new Date() }).where('name', '=', SUBSCRIBER_CHECKPOINT).execute()
    return { position: last, deliveries }
  })
}
