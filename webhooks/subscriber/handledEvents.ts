// Which stored events give the webhook subscriber work: endpoint events (its snapshots) and events
// that map to a public event (a message). `projections status` counts its lag over these only.
import { isKnownEventType, parseEventData } from '../../events/catalog.js'
import type { RecordedEvent } from '../../events/store/port.js'
import type { PublicEventLookup } from '../publicEventMappers.js'
import { isEndpointEvent } from './endpointSnapshots.js'

export function subscriberHandles(mappers: PublicEventLookup, event: RecordedEvent): boolean {
  if (isEndpointEvent(event.type)) return true
  try {
    // Parsed first, whatever its type: the consumer runtime parses every event it hands the subscriber.
    const data = isKnownEventType(event.type) ? parseEventData(event) : event.data
    const map = mappers.get(event.type)
    return map !== undefined && map({ type: event.type, data, recordedAt: event.recordedAt }) !== undefined
  } catch {
    // An event the subscriber cannot read is one it is stuck on, or will be: work still ahead.
    return true
  }
}
