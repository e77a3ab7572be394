// Stored events in the order the chain is checked in, a page at a time: all streams in commit order,
// or one stream by revision. Read from the store without the codec (data as stored).
import { type EventStore, type Position, type RecordedEvent, STORE_LIMITS } from '../store/port.js'

export async function* storedEventPages(store: EventStore, scope: { stream?: string | undefined } = {}): AsyncGenerator<RecordedEvent[]> {
  const stream = scope.stream
  if (stream !== undefined) {
    for (let from = 0n; ;) {
      const page = await store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
      if (page.length > 0) yield page
      if (page.length < STORE_LIMITS.maxReadCount) return
      from = page[page.length - 1]!.revision + 1n
    }
  }
  for (let from: Position | undefined; ;) {
    const page = await store.readAll({ ...(from ? { from } : {}), maxCount: STORE_LIMITS.maxReadCount })
    if (page.length === 0) return
    yield page
    from = page[page.length - 1]!.position
  }
}
