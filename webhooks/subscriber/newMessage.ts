// One stored event's webhook message, as the subscriber stores it: the public event of the one
// mapper that claims it, its envelope serialised once, its tags bounded, its target endpoint. Pure,
// so a property test drives every event type through exactly what the subscriber runs.
import type { PublicEvent, PublicEventMapper } from '../../domain/publicEvents.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { boundedTags, buildEnvelope } from '../envelope.js'
import { targetEndpointOf } from '../publicEventMappers.js'
import type { NewMessage } from './storeMessages.js'

/** A stored event maps to at most one public event; two mappers claiming one is a bug. */
function toPublicEvent(mappers: readonly PublicEventMapper[], event: RecordedEvent): PublicEvent | undefined {
  let found: PublicEvent | undefined
  for (const map of mappers) {
    const mapped = map({ type: event.type, data: event.data, recordedAt: event.recordedAt })
    if (!mapped) continue
    if (found) throw new Error(`Stored event type ${event.type} is mapped by two public event mappers`)
    found = mapped
  }
  return found
}

/** The message of a stored event, or undefined when it has no public event. */
export function newMessageOf(mappers: readonly PublicEventMapper[], event: RecordedEvent): NewMessage | undefined {
  const publicEvent = toPublicEvent(mappers, event)
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
