// One stored event's webhook message, as the subscriber stores it: the public event of the mapper
// of its type, its envelope serialised once, its tags bounded, its target endpoint. Pure,
// so a property test drives every event type through exactly what the subscriber runs.
import type { RecordedEvent } from '../../events/store/port.js'
import { boundedTags, buildEnvelope } from '../envelope.js'
import { type PublicEventLookup, targetEndpointOf } from '../publicEventMappers.js'
import type { NewMessage } from './storeMessages.js'

/** The message of a stored event, or undefined when it has no public event. */
export function newMessageOf(mappers: PublicEventLookup, event: RecordedEvent): NewMessage | undefined {
  // One mapper per stored type (the lookup refused a second one when it was built).
  const publicEvent = mappers.get(event.type)?.({ type: event.type, data: event.data, recordedAt: event.recordedAt })
  if (!publicEvent) return undefined
  const organizationId = event.metadata.organizationId
  if (!organizationId) throw new Error(`Event ${event.id} (${event.type}) has a public type but no organizationId in its metadata`)
  const { envelope, body } = buildEnvelope({ storedEventId: event.id, recordedAt: event.recordedAt, organizationId, event: publicEvent })
  return {
    id: envelope.id,
    organizationId,
    eventType: envelope.type,
    body,
    tags: boundedTags(publicEvent.tags),
    targetEndpointId: targetEndpointOf(event.type, event.data) ?? null,
    createdAt: event.recordedAt,
  }
}
