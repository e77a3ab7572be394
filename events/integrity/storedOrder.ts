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
    // Past running transactions: a gap-safe read stops behind any open writer (a consumer's batch), and a
    // verify would end short of the head. What it cannot see yet is an append still in flight, which a
    // stream's later revision cannot overtake (its insert needs the earlier one committed), so no chain breaks.
    const page = await store.readAll({ ...(from ? { from } : {}), maxCount: STORE_LIMITS.maxReadCount, pastRunningTransactions: true })
    if (page.length === 0) return
    yield page
    from = page[page.length - 1]!.position
  }
}
