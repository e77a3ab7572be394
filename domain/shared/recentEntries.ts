// The most recent entries of something that grows with history (a balance account's closed holds and
// credits, a fixed route's deposits), bounded, the oldest dropped first. Immutable like the states
// that hold them, yet adding one copies only one chunk, not the whole map, so folding a million
// events stays linear (a whole-map copy per credit made a long account's history quadratic). Every
// chunk but the last is full (the oldest chunk is dropped whole), so a list of entries has one shape
// only and a snapshot rebuilds exactly the value it was taken from.

/** Entries per chunk; past the limit the oldest chunk is dropped, so between limit - 255 and limit are kept. */
export const RECENT_CHUNK = 256

export type RecentEntries<V> = {
  /** Oldest first; each full but the last. */
  readonly chunks: readonly ReadonlyMap<string, V>[]
  readonly size: number
}

const EMPTY: RecentEntries<never> = { chunks: [], size: 0 }

export const noRecentEntries = <V>(): RecentEntries<V> => EMPTY

function chunkHolding<V>(recent: RecentEntries<V>, key: string): number {
  // Newest first: a repeated command is most likely about something recent.
  for (let i = recent.chunks.length - 1; i >= 0; i--) if (recent.chunks[i]!.has(key)) return i
  return -1
}

export const recentHas = <V>(recent: RecentEntries<V>, key: string): boolean => chunkHolding(recent, key) >= 0

export function recentGet<V>(recent: RecentEntries<V>, key: string): V | undefined {
  const at = chunkHolding(recent, key)
  return at < 0 ? undefined : recent.chunks[at]!.get(key)
}

/** The entries, oldest first. */
export function* recentList<V>(recent: RecentEntries<V>): Generator<[string, V]> {
  for (const chunk of recent.chunks) yield* chunk
}

/**
 * `recent` with `key` set to `value`: a known key keeps its place (only its chunk is copied; `recent` itself when it
 * already holds that very value), a new one is the newest, and at most `limit` entries are kept.
 */
export function withRecentEntry<V>(recent: RecentEntries<V>, key: string, value: V, limit: number): RecentEntries<V> {
  if (limit < RECENT_CHUNK) throw new RangeError(`a recent-entries limit is at least ${RECENT_CHUNK}`)
  const { chunks } = recent
  const at = chunkHolding(recent, key)
  if (at >= 0) {
    if (Object.is(chunks[at]!.get(key), value)) return recent
    const next = [...chunks]
    next[at] = new Map(chunks[at]!).set(key, value)
    return { chunks: next, size: recent.size }
  }
  const last = chunks[chunks.length - 1]
  let next =
    last && last.size < RECENT_CHUNK ? [...chunks.slice(0, -1), new Map(last).set(key, value)] : [...chunks, new Map([[key, value]])]
  let size = recent.size + 1
  if (size > limit && next.length > 1) {
    size -= next[0]!.size
    next = next.slice(1)
  }
  return { chunks: next, size }
}

/** The value holding `entries` (oldest first, distinct keys), as the same adds would have left it; throws past `limit` or on a repeat. */
export function recentEntriesOf<V>(entries: readonly (readonly [string, V])[], limit: number): RecentEntries<V> {
  if (entries.length > limit) throw new RangeError(`${entries.length} recent entries, more than ${limit}`)
  const chunks: ReadonlyMap<string, V>[] = []
  for (let i = 0; i < entries.length; i += RECENT_CHUNK) {
    const chunk = new Map(entries.slice(i, i + RECENT_CHUNK))
    // A repeat within a chunk is refused; one across chunks is not looked for (a second map of all
    // the keys would cost as much as the chunks, on a cold load's path), and would only count twice.
    if (chunk.size !== Math.min(RECENT_CHUNK, entries.length - i)) throw new RangeError('recent entries repeat')
    chunks.push(chunk)
  }
  return { chunks, size: entries.length }
}
