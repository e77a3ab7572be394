// One page of several streams' events merged into one list in the order of $all (their positions),
// for a resource whose id names more than one stream. Where the page stops is a position in each
// stream: the next revision to read, by the stream's category, so the next page reads each stream
// from there (a stream missing from it is one that appeared since: read from its start).
import type { EventStore, RecordedEvent } from '../store/port.js'
import type { ResourceStream } from './resourceStreams.js'

/** The next revision to read of each stream, by category. */
export type StreamRevisions = Readonly<Record<string, bigint>>

/** An event of the merged list, with where each stream stands once it is read (the next page starts there). */
export type MergedEvent = { category: string; event: RecordedEvent; after: StreamRevisions }

/**
 * Up to `limit + 1` events (one more tells that more follow) of the streams, each read from its
 * revision in `from`, in position order. Each stream is read at most `limit + 1` events ahead.
 */
export async function readMergedPage(
  store: Pick<EventStore, 'readStream' | 'comparePositions'>,
  streams: readonly ResourceStream[],
  from: StreamRevisions,
  limit: number,
): Promise<MergedEvent[]> {
  const pages = await Promise.all(
    streams.map((s) => store.readStream(s.stream, { fromRevision: from[s.category] ?? 0n, maxCount: limit + 1 })),
  )
  const merged = streams
    .flatMap((s, i) => pages[i]!.map((event) => ({ category: s.category, event })))
    .sort((a, b) => store.comparePositions(a.event.position, b.event.position))
    .slice(0, limit + 1)
  const next: Record<string, bigint> = Object.fromEntries(streams.map((s) => [s.category, from[s.category] ?? 0n]))
  return merged.map(({ category, event }) => {
    next[category] = event.revision + 1n
    return { category, event, after: { ...next } }
  })
}
