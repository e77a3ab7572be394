// A store whose appends go through a step of the caller's (count them, add an in-transaction step)
// and whose every other member is the inner store's: one place to follow the port as it grows.
import type { EventStore } from './port.js'

export function withAppend(
  store: EventStore,
  appendToStream: EventStore['appendToStream'],
  supportsInTransaction: boolean = store.supportsInTransaction,
): EventStore {
  return {
    kind: store.kind,
    supportsInTransaction,
    appendToStream,
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readAllMarks: (options) => store.readAllMarks(options),
    readHead: () => store.readHead(),
    subscribeToAll: (options, handler) => store.subscribeToAll(options, handler),
    comparePositions: (a, b) => store.comparePositions(a, b),
    close: () => store.close(),
  }
}
