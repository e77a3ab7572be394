// The event store with its appends counted (events_appended_total), by type: the catalog's types
// are a closed list, so the label set stays bounded; anything else (benchmarks, tests) is "other".
import { isKnownEventType } from '../../events/catalog.js'
import { withAppend } from '../../events/store/appendWrapper.js'
import type { EventStore } from '../../events/store/port.js'
import type { ServiceMetrics } from './serviceMetrics.js'

export function countingEventStore(store: EventStore, counter: ServiceMetrics['eventsAppended']): EventStore {
  return withAppend(store, async (stream, events, options) => {
    const result = await store.appendToStream(stream, events, options)
    // Counted once committed; an idempotent repeat of the same events counts again, as an append call.
    for (const event of events) counter.inc({ event_type: isKnownEventType(event.type) ? event.type : 'other' })
    return result
  })
}
