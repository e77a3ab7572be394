// How the command runtime uses snapshots (domain/snapshot.ts, snapshotStore.ts): a load of an
// aggregate that opts in starts from its stream's snapshot when one of the codec's version decodes,
// and after an append that takes the stream `everyEvents` past the last snapshot this process knows
// of, the new state is saved off the request path. A snapshot is only a cache: one that cannot be
// read, is of another version or does not decode is logged once and ignored, and a failed save is
// logged and forgotten; neither ever fails a command. A snapshot is only ever of a state whose
// events are stored (it is taken after the append succeeded, or from a fold of the stream).
import type { JsonValue, SnapshotCodec } from '../../domain/snapshot.js'
import type { SnapshotStore } from './snapshotStore.js'

export const SNAPSHOT_LIMITS = {
  /** Saves under way at once per process; past it a due snapshot waits for the stream's next append. */
  maxSavesInFlight: 4,
  /** Unusable snapshots remembered as already logged (stream@revision), so each is logged once. */
  maxWarnedSnapshots: 1_000,
  /** Longest wait, when the runtime stops using a snapshot store, for the saves under way. */
  drainTimeoutMs: 5_000,
} as const

export type SnapshotLog = { warn(details: Record<string, unknown>, message: string): void }

/** A process's use of one snapshot store (one per event store, as the stream lock). */
export type Snapshotting = {
  store: SnapshotStore
  log: SnapshotLog
  inFlight: Set<Promise<void>>
  warned: Set<string>
}

export function snapshotting(store: SnapshotStore, log: SnapshotLog): Snapshotting {
  return { store, log, inFlight: new Set(), warned: new Set() }
}

function warnOnce(s: Snapshotting, key: string, details: Record<string, unknown>, message: string): void {
  if (s.warned.has(key)) return
  if (s.warned.size >= SNAPSHOT_LIMITS.maxWarnedSnapshots) s.warned.delete(s.warned.values().next().value!)
  s.warned.add(key)
  s.log.warn(details, message)
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error')

/** The stream's snapshot as a state, when there is one this codec can use. */
export async function readSnapshot<State>(
  s: Snapshotting,
  codec: SnapshotCodec<State>,
  stream: string,
): Promise<{ state: State; revision: bigint } | undefined> {
  let stored
  try {
    stored = await s.store.read(stream)
  } catch (error) {
    warnOnce(s, `${stream}@read`, { stream, error: describe(error) }, 'snapshot unreadable; folding the stream from its first event')
    return undefined
  }
  if (!stored) return undefined
  const key = `${stream}@${stored.revision}`
  if (stored.version !== codec.version) {
    const details = { stream, revision: stored.revision.toString(), version: stored.version, codecVersion: codec.version }
    warnOnce(s, key, details, 'snapshot of another codec version ignored; it is replaced after the next commands')
    return undefined
  }
  try {
    return { state: codec.decode(stored.state), revision: stored.revision }
  } catch (error) {
    // Never the state itself in the log: the codec's message names fields, not values.
    const details = { stream, revision: stored.revision.toString(), error: describe(error).slice(0, 300) }
    warnOnce(s, key, details, 'snapshot does not decode; ignored, and replaced after the next commands')
    return undefined
  }
}

/** The last snapshot revision of a stream that has none (or none this process can use). */
export const NO_SNAPSHOT = -1n

/** True when a stream at `revision` is `everyEvents` past its last known snapshot (NO_SNAPSHOT: none). */
export function snapshotDue(everyEvents: number, revision: bigint, lastSnapshot: bigint): boolean {
  return revision - lastSnapshot >= BigInt(everyEvents)
}

/**
 * Saves `state` at `revision` in the background (never awaited by the command). False when it was
 * not started (too many saves under way): the caller keeps its last snapshot revision and tries again.
 */
export function saveInBackground<State>(
  s: Snapshotting,
  codec: SnapshotCodec<State>,
  stream: string,
  state: State,
  revision: bigint,
): boolean {
  if (s.inFlight.size >= SNAPSHOT_LIMITS.maxSavesInFlight) return false
  const save = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => {
      // Encoded here, off the command's path (states are immutable, so it is the state as appended).
      const json: JsonValue | undefined = codec.encode(state)
      if (json === undefined) return
      return s.store.save({ stream, revision, version: codec.version, state: json })
    })
    .catch((error: unknown) => s.log.warn({ stream, revision: revision.toString(), error: describe(error) }, 'snapshot save failed'))
    .finally(() => s.inFlight.delete(save))
  s.inFlight.add(save)
  return true
}

/**
 * After an append took `stream` to `revision`: starts a snapshot of `state` when one is due, and
 * answers the newest snapshot revision this process then knows of.
 */
export function takeSnapshotIfDue<State>(
  s: Snapshotting | undefined,
  codec: SnapshotCodec<State> | undefined,
  stream: string,
  state: State,
  revision: bigint,
  lastSnapshot: bigint,
): bigint {
  if (!s || !codec || !snapshotDue(codec.everyEvents, revision, lastSnapshot)) return lastSnapshot
  return saveInBackground(s, codec, stream, state, revision) ? revision : lastSnapshot
}

/** Waits, bounded, for the saves under way (a process stopping before its database closes). */
export async function drainSaves(s: Snapshotting): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SNAPSHOT_LIMITS.drainTimeoutMs)))
  await Promise.race([Promise.all(s.inFlight), timeout])
  clearTimeout(timer)
}
