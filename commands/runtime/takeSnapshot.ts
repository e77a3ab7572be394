// Takes a stream's snapshot from its events, folded from the first one, and puts it in place of the
// stored one whatever that is (another version, unreadable, missing): what `snapshots rebuild`
// does, and how a stream whose snapshot was lost gets one again when it is too long to load.
import type { DomainEvent, Evolver } from '../../domain/decider.js'
import type { EventStore } from '../../events/store/port.js'
import { loadAggregate } from './loadAggregate.js'
import type { SnapshotStore } from './snapshotStore.js'

export const TAKE_SNAPSHOT_LIMITS = {
  /** Most events one rebuild folds (an operator's command, not a request: far past maxEventsPerLoad). */
  maxEventsPerRebuild: 50_000_000,
} as const

export type TakenSnapshot = { stream: string; revision: string; version: number; events: number }

/** The snapshot taken, or undefined for a stream with no events or a state its codec does not keep (its row is left as is). */
export async function takeSnapshot<State, Event extends DomainEvent>(
  store: EventStore,
  snapshots: SnapshotStore,
  decider: Evolver<State, Event>,
  stream: string,
): Promise<TakenSnapshot | undefined> {
  const codec = decider.snapshot
  if (!codec) throw new Error(`the aggregate of ${stream} takes no snapshots`)
  const { state, revision } = await loadAggregate(store, decider, stream, { maxEvents: TAKE_SNAPSHOT_LIMITS.maxEventsPerRebuild })
  if (revision === undefined) return undefined
  const json = codec.encode(state)
  if (json === undefined) return undefined
  await snapshots.replace({ stream, revision, version: codec.version, state: json })
  return { stream, revision: revision.toString(), version: codec.version, events: Number(revision) + 1 }
}
