// How the command runtime runs one command: loads the aggregate, asks the pure decider, appends
// with the expected revision; on a concurrent write it reloads and decides again, a bounded number
// of times. Inside this process, commands on one stream wait for each other (streamQueue.ts) and
// the ones queued together are decided into one append (commandBatch.ts); across processes, a
// contended stream is decided under its stream lock (streamTurns.ts). Private to the runtime:
// every caller goes through CommandRuntime (commandRuntime.ts).
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { WrongExpectedVersionError } from '../../events/store/port.js'
import { type BatchEntry, type EntryOutcome, takeBatch } from './commandBatch.js'
import type { CommandOrigin } from './commandOrigin.js'
import type { CommandResult } from './commandResult.js'
import { toNewEvents } from './decideAndAppend.js'
import { keepState } from './keptStates.js'
import type { AnyEntry, RuntimeState } from './runtimeState.js'
import { NO_SNAPSHOT, takeSnapshotIfDue } from './snapshots.js'
import { releaseHoldIfDone, runTurn } from './streamTurns.js'

export async function runCommand<State, Command, Event extends DomainEvent>(
  runtime: RuntimeState,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  origin: CommandOrigin,
  options: { newStream?: boolean } = {},
): Promise<CommandResult<State>> {
  if (options.newStream && origin.commandId === undefined) {
    const started = await startStream(runtime, decider, stream, command, origin)
    if (started) return started
  }
  const { queue, warm } = runtime
  const entry: BatchEntry<State, Command, Event> = { decider, command, origin }
  // A command with an id reads its whole stream to see whether it already ran: it is decided alone.
  const batchable = origin.commandId === undefined
  if (batchable) waitingOf(runtime, stream).push(entry as unknown as AnyEntry)
  return queue.run(stream, async () => {
    try {
      // Answered already when an earlier command's turn decided it in its batch.
      if (!entry.outcome) {
        const entries = batchable
          ? (takeBatch(waitingOf(runtime, stream), entry as unknown as AnyEntry) as unknown as (typeof entry)[])
          : [entry]
        forgetIfEmpty(runtime, stream)
        try {
          await runTurn(runtime, stream, entries)
        } catch (error) {
          for (const e of entries) e.outcome ??= { ok: false, error }
        }
      }
      return answer(entry.outcome!)
    } finally {
      await releaseHoldIfDone(runtime, stream)
      // Nobody behind this command: the kept state goes stale (the next command catches it up).
      const kept = warm.get(stream)
      if (kept && queue.waiting(stream) <= 1) kept.stale = true
    }
  })
}

/**
 * A command that starts a stream under an id generated for it: the stream is almost surely empty
 * and nobody else can be deciding on it, so it skips the queue and the read, and lets the store's
 * no_stream check prove it. Undefined on a conflict: the caller takes the queued path.
 */
async function startStream<State, Command, Event extends DomainEvent>(
  runtime: RuntimeState,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  origin: CommandOrigin,
): Promise<CommandResult<State> | undefined> {
  const state = decider.initialState()
  const events = decider.decide(command, state)
  if (events.length === 0) return { state, position: undefined, events, eventIds: [] }
  const newEvents = toNewEvents(events, origin)
  try {
    const result = await runtime.store.appendToStream(stream, newEvents, { expectedRevision: 'no_stream' })
    const next = events.reduce(decider.evolve, state)
    const revision = result.nextExpectedRevision
    keepState(runtime.warm, stream, {
      decider,
      state: next,
      revision,
      hold: undefined,
      stale: true,
      snapshotRevision: takeSnapshotIfDue(runtime.snapshots, decider.snapshot, stream, next, revision, NO_SNAPSHOT),
    })
    return { state: next, position: result.position, events, eventIds: newEvents.map((e) => e.id) }
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error
    return undefined
  }
}

function waitingOf(runtime: RuntimeState, stream: string): AnyEntry[] {
  let waiting = runtime.waitingEntries.get(stream)
  if (!waiting) {
    waiting = []
    runtime.waitingEntries.set(stream, waiting)
  }
  return waiting
}

function forgetIfEmpty(runtime: RuntimeState, stream: string): void {
  if (runtime.waitingEntries.get(stream)?.length === 0) runtime.waitingEntries.delete(stream)
}

function answer<State>(outcome: EntryOutcome<State>): CommandResult<State> {
  if (!outcome.ok) throw outcome.error
  return {
    state: outcome.state,
    position: outcome.position,
    events: outcome.events,
    eventIds: outcome.eventIds,
    ...(outcome.repeatedAt ? { repeatedAt: outcome.repeatedAt } : {}),
  }
}
