// The state a command left on its stream, kept by this process. While more commands wait on that
// stream, the next one decides on it as it is (a hot stream would otherwise cost a longer read per
// command); once none waits it goes stale, and the next command reads only the events after it
// (another process may have written). Either way the append's expected revision proves it current.
// At most maxKeptStates are kept, the least recently used forgotten first.
import { COMMAND_LIMITS } from './commandLimits.js'
import type { Hold } from './streamLock.js'

export type Warm = {
  decider: unknown
  state: unknown
  revision: bigint
  hold: Hold | undefined
  stale: boolean
  /** The stream's newest snapshot this process read or saved (NO_SNAPSHOT: none), so it knows when the next is due. */
  snapshotRevision: bigint
}

export type KeptStates = Map<string, Warm>

export type Kept<State> = { state: State; revision: bigint; hold: Hold | undefined; stale: boolean; snapshotRevision: bigint }

export function keepState(warm: KeptStates, stream: string, kept: Warm): void {
  warm.delete(stream)
  if (warm.size >= COMMAND_LIMITS.maxKeptStates) warm.delete(warm.keys().next().value!)
  warm.set(stream, kept)
}

/** The kept state of `stream` when the same decider kept it (so it is of the State this decider folds). */
export function keptState<State>(warm: KeptStates, stream: string, decider: unknown): Kept<State> | undefined {
  const kept = warm.get(stream)
  return kept && kept.decider === decider
    ? { state: kept.state as State, revision: kept.revision, hold: kept.hold, stale: kept.stale, snapshotRevision: kept.snapshotRevision }
    : undefined
}
