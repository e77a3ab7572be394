// What one command runtime keeps between commands: each runtime (one per process and event store;
// tests open several to play several processes) has its own, so nothing lives in module state.
import type { DomainEvent } from '../../domain/decider.js'
import type { EventStore } from '../../events/store/port.js'
import type { BatchEntry } from './commandBatch.js'
import type { KeptStates } from './keptStates.js'
import type { Snapshotting } from './snapshots.js'
import type { Hold, StreamLock } from './streamLock.js'
import { type StreamQueue, createStreamQueue } from './streamQueue.js'

/** Entries of any aggregate in one map; a batch only ever joins entries of one decider, so of one State. */
export type AnyEntry = BatchEntry<unknown, unknown, DomainEvent>

export type RuntimeState = {
  store: EventStore
  queue: StreamQueue
  warm: KeptStates
  lock: StreamLock
  /** Streams another process wrote to concurrently, until when their commands take the lock. */
  contendedUntil: Map<string, number>
  holds: Map<string, Hold>
  /** Commands (without a commandId) waiting on each stream: the first one to run decides them together (commandBatch.ts). */
  waitingEntries: Map<string, AnyEntry[]>
  /** Where this runtime reads and takes snapshots; undefined: it does not (every load folds from the first event). */
  snapshots: Snapshotting | undefined
}

export function createRuntimeState(store: EventStore, lock: StreamLock, snapshots: Snapshotting | undefined): RuntimeState {
  return {
    store,
    queue: createStreamQueue(),
    warm: new Map(),
    lock,
    contendedUntil: new Map(),
    holds: new Map(),
    waitingEntries: new Map(),
    snapshots,
  }
}
