// A read outside a command (the facts a decision needs from other streams): the stream's state from
// the one this runtime keeps, reading only the events after it, and kept in turn. Private to the
// runtime: callers use CommandRuntime.load.
import type { DomainEvent, Evolver } from '../../domain/decider.js'
import { keepState, keptState } from './keptStates.js'
import { loadAggregate } from './loadAggregate.js'
import type { RuntimeState } from './runtimeState.js'
import { NO_SNAPSHOT } from './snapshots.js'

export async function loadLatest<State, Event extends DomainEvent>(
  runtime: RuntimeState,
  decider: Evolver<State, Event>,
  stream: string,
): Promise<{ state: State; revision: bigint | undefined }> {
  const { warm, snapshots } = runtime
  const kept = keptState<State>(warm, stream, decider)
  const loaded = await loadAggregate(runtime.store, decider, stream, kept ? { from: kept } : snapshots ? { snapshots } : {})
  // A state a queued command still decides on is that command's to move; a stale one is refreshed.
  if (loaded.revision !== undefined && (!kept || kept.stale) && loaded.revision !== kept?.revision)
    keepState(warm, stream, {
      decider,
      state: loaded.state,
      revision: loaded.revision,
      hold: undefined,
      stale: true,
      snapshotRevision: loaded.snapshotRevision ?? kept?.snapshotRevision ?? NO_SNAPSHOT,
    })
  return { state: loaded.state, revision: loaded.revision }
}
