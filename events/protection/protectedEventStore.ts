// The event store as every part of the service sees it: the adapter (Postgres or EventStoreDB)
// behind the event codec, so events are sealed on the way in and opened on the way out, and no
// adapter ever holds a sensitive field in clear. Both adapters share it: their one contract suite
// runs through it too. An append's in-transaction step sees the events as the caller gave them,
// sensitive fields open (no second decryption of what was just sealed).
import type { EventStore, RecordedEvent } from '../store/port.js'
import type { EventCodec } from './eventCodec.js'

export function protectedEventStore(inner: EventStore, codec: EventCodec): EventStore {
  const decodeAll = (events: RecordedEvent[]) => codec.decode(events)
  // $all readers (projections, workflows, the webhook subscriber) skip most events: open on use.
  const decodeLazily = (events: RecordedEvent[]) => codec.decode(events, { lazy: true })
  return {
    kind: inner.kind,
    supportsInTransaction: inner.supportsInTransaction,
    async appendToStream(stream, events, options) {
      const encoded = await Promise.all(events.map((e) => codec.encode(stream, e)))
      if (!options?.inTransaction) return inner.appendToStream(stream, encoded, options)
      // Recorded in order, one per event given: each gets its own data back (its metadata as stored). The step
      // itself is passed on unchanged, so the appends of a batch still share it (port.ts).
      const outer = options.stepView
      const clear = (recorded: RecordedEvent[]) => recorded.map((r, i) => ({ ...r, data: events[i]!.data }))
      return inner.appendToStream(stream, encoded, { ...options, stepView: outer ? (recorded) => outer(clear(recorded)) : clear })
    },
    async readStream(stream, options) {
      return decodeAll(await inner.readStream(stream, options))
    },
    async readAll(options) {
      return decodeLazily(await inner.readAll(options))
    },
    // Marks carry no data: nothing to open.
    readAllMarks: (options) => inner.readAllMarks(options),
    readHead: () => inner.readHead(),
    subscribeToAll(options, handler) {
      return inner.subscribeToAll(options, {
        ...handler,
        onEvents: async (events) => handler.onEvents(await decodeLazily(events)),
      })
    },
    comparePositions: (a, b) => inner.comparePositions(a, b),
    close: () => inner.close(),
  }
}
