// The snapshot store port: where the command runtime keeps the newest snapshot of each stream whose
// aggregate opts in (domain/snapshot.ts). A snapshot is a cache of the fold of a stream's events,
// never the truth: losing one costs a longer read, a stale or unreadable one is ignored. Adapter:
// postgresSnapshotStore.ts (the read database, whichever event store holds the events); without
// one, every load folds the stream from its first event.
import type { JsonValue } from '../../domain/snapshot.js'

export type StoredSnapshot = {
  stream: string
  /** The revision of the last event the state includes. */
  revision: bigint
  /** The codec version that encoded it. */
  version: number
  /** The codec's JSON, parsed (unknown: it is validated by the codec's decode). */
  state: unknown
  takenAt: Date
}

export type NewSnapshot = { stream: string; revision: bigint; version: number; state: JsonValue }

export type SnapshotStore = {
  /** The stream's snapshot, if any (one primary-key read). Throws on a row it cannot read at all. */
  read(stream: string): Promise<StoredSnapshot | undefined>
  /** Saves it unless the stream's stored snapshot is at a higher or the same revision (the higher revision wins). */
  save(snapshot: NewSnapshot): Promise<void>
  /** Saves it whatever is stored (a rebuild: a snapshot of another version at the same revision is replaced). */
  replace(snapshot: NewSnapshot): Promise<void>
}
