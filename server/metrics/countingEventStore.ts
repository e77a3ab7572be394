// The event store with its appends counted (events_appended_total), by type: the catalog's types
// are a closed list, so the label set stays bounded; anything else (benchmarks, tests) is "other".
import { isKnownEventType } from '../../events/catalog.js'
import type { EventStore } from '../../events/store/port.js'
import type { ServiceMetrics } from './serviceMetrics.js'

export function countingEventStore(store: EventStore, counter: ServiceMetrics['eventsAppended']): EventStore {
  return {
    kind: store.kind,
    supportsInTransaction: store.supportsInTransaction,
    async appendToStream(stream, events, options) {
      const result = await store.appendToStream(stream, events, options)
      // Counted once committed; an idempotent repeat of the same events counts again, as an append call.
      for (const event of events) counter.inc({ event_type: isKnownEventType(event.type) ? event.type : 'other' })
      return result
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readAllMarks: (options) => store.readAllMarks(options),
    readHead: () => store.readHead(),
    subscribeToAll: (options, handler) => store.subscribeToAll(options, handler),
    comparePositions: (a, b) => store.comparePositions(a, b),
    close: () => store.close(),
  }
}
