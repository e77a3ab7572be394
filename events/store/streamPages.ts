// A stream read whole, page by page: one readStream answers at most STORE_LIMITS.maxReadCount events,
// so every reader that folds or scans a stream that may be longer goes through here.
import { type EventStore, type RecordedEvent, STORE_LIMITS } from './port.js'

/** The stream's events from `fromRevision` on, a page at a time (no empty pages); a caller may stop early. */
export async function* streamPages(
  store: Pick<EventStore, 'readStream'>,
  stream: string,
  fromRevision = 0n,
): AsyncGenerator<RecordedEvent[], void, undefined> {
  let from = fromRevision
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
    if (page.length > 0) yield page
    if (page.length < STORE_LIMITS.maxReadCount) return
    from = page[page.length - 1]!.revision + 1n
  }
}
