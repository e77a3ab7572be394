// The most recent ids of something that grows with history (a balance account's closed holds),
// bounded, the oldest dropped first. Immutable like the states that hold it, yet adding one copies
// only the newest chunk, not the whole set, so folding a million events stays linear. Every chunk
// but the last is full (the oldest chunk is dropped whole), so a list of ids has one shape only and
// a snapshot rebuilds exactly the value it was taken from.

/** Ids per chunk; past the limit the oldest chunk is dropped, so between limit - 255 and limit are kept. */
export const RECENT_IDS_CHUNK = 256

export type RecentIds = {
  /** Oldest first; each full but the last. */
  readonly chunks: readonly ReadonlySet<string>[]
  readonly size: number
}

export const noRecentIds: RecentIds = { chunks: [], size: 0 }

export function hasRecentId(recent: RecentIds, id: string): boolean {
  // Newest first: a repeated command is most likely about something recent.
  for (let i = recent.chunks.length - 1; i >= 0; i--) if (recent.chunks[i]!.has(id)) return true
  return false
}

/** The ids, oldest first. */
export function recentIdList(recent: RecentIds): string[] {
  return recent.chunks.flatMap((chunk) => [...chunk])
}

/** `recent` with `id` as the newest (unchanged when already there), at most `limit` ids. */
export function withRecentId(recent: RecentIds, id: string, limit: number): RecentIds {
  if (limit < RECENT_IDS_CHUNK) throw new RangeError(`a recent-ids limit is at least ${RECENT_IDS_CHUNK}`)
  if (hasRecentId(recent, id)) return recent
  const { chunks } = recent
  const last = chunks[chunks.length - 1]
  let next = last && last.size < RECENT_IDS_CHUNK ? [...chunks.slice(0, -1), new Set(last).add(id)] : [...chunks, new Set([id])]
  let size = recent.size + 1
  if (size > limit && next.length > 1) {
    size -= next[0]!.size
    next = next.slice(1)
  }
  return { chunks: next, size }
}

/** The value holding `ids` (oldest first, distinct), as the same adds would have left it; throws past `limit` or on a repeat. */
export function recentIdsOf(ids: readonly string[], limit: number): RecentIds {
  if (ids.length > limit) throw new RangeError(`${ids.length} recent ids, more than ${limit}`)
  const chunks: ReadonlySet<string>[] = []
  for (let i = 0; i < ids.length; i += RECENT_IDS_CHUNK) {
    const chunk = new Set(ids.slice(i, i + RECENT_IDS_CHUNK))
    // A repeat within a chunk is refused; one across chunks is not looked for (a second Set of all
    // the ids would cost as much as the chunks, on a cold load's path), and would only count twice.
    if (chunk.size !== Math.min(RECENT_IDS_CHUNK, ids.length - i)) throw new RangeError('recent ids repeat')
    chunks.push(chunk)
  }
  return { chunks, size: ids.length }
}
