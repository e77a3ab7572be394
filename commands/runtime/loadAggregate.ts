// Folds an aggregate's state from its stream: from a state known at a revision, else from the
// stream's snapshot, else from the first event, reading only the events after it. Private to the
// command runtime: everything else loads through CommandRuntime.load.
import type { DomainEvent, Evolver } from '../../domain/decider.js'
import { parseEventData } from '../../events/catalog.js'
import type { EventStore, Position } from '../../events/store/port.js'
import { streamPages } from '../../events/store/streamPages.js'
import { COMMAND_LIMITS } from './commandLimits.js'
import { NO_SNAPSHOT, type Snapshotting, readSnapshot } from './snapshots.js'

export class StreamTooLongError extends Error {
  override readonly name = 'StreamTooLongError'
  constructor(
    readonly stream: string,
    readonly maxEvents: number,
  ) {
    super(`Stream ${stream} has more than ${maxEvents} events to fold (past its snapshot, if any)`)
  }
}

export type Loaded<State> = {
  state: State
  revision: bigint | undefined
  commandSeen: boolean
  /** Where the command's event was stored when it had run already (its answer's read-your-writes position). */
  commandPosition?: Position | undefined
  /** The revision of the snapshot the load started from (NO_SNAPSHOT: none usable); undefined when it started from `from`. */
  snapshotRevision: bigint | undefined
}

/**
 * The aggregate's state on `stream`: from `from` (a state known at a revision), else from the
 * stream's snapshot (when `snapshots` is given and the decider has a codec), else from the first
 * event, reading only the events after it. `commandSeen`: `commandId` is among the events read, so
 * with a snapshot only the commands after it are seen (domain/snapshot.ts: the decider must refuse
 * an older repeat by its own keys). `maxEvents` bounds the events folded (maxEventsPerLoad).
 */
export async function loadAggregate<State, Event extends DomainEvent>(
  store: EventStore,
  decider: Evolver<State, Event>,
  stream: string,
  options: { commandId?: string; from?: { state: State; revision: bigint }; snapshots?: Snapshotting; maxEvents?: number } = {},
): Promise<Loaded<State>> {
  let start = options.from
  let snapshotRevision: bigint | undefined
  if (!start && options.snapshots && decider.snapshot) {
    start = await readSnapshot(options.snapshots, decider.snapshot, stream)
    snapshotRevision = start ? start.revision : NO_SNAPSHOT
  }
  const maxEvents = options.maxEvents ?? COMMAND_LIMITS.maxEventsPerLoad
  let state = start ? start.state : decider.initialState()
  let revision: bigint | undefined = start?.revision
  let commandSeen = false
  let commandPosition: Position | undefined
  let folded = 0
  for await (const page of streamPages(store, stream, revision === undefined ? 0n : revision + 1n)) {
    folded += page.length
    if (folded > maxEvents) throw new StreamTooLongError(stream, maxEvents)
    for (const recorded of page) {
      state = decider.evolve(state, { type: recorded.type, data: parseEventData(recorded) } as Event)
      revision = recorded.revision
      if (options.commandId !== undefined && recorded.metadata.commandId === options.commandId) {
        commandSeen = true
        commandPosition = recorded.position
      }
    }
  }
  return { state, revision, commandSeen, commandPosition, snapshotRevision }
}
