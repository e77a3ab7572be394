// One try (and its bounded retries) of a turn on a stream: decide the entries on the stream's
// current state and append all their events at once, answering each entry once the append is in.
import { randomUUID } from 'node:crypto'
import type { DomainEvent } from '../../domain/decider.js'
import { schemaVersionOf, validateNewEventData } from '../../events/catalog.js'
import { type NewEvent, WrongExpectedVersionError } from '../../events/store/port.js'
import { type BatchEntry, decideBatch, settleEntries } from './commandBatch.js'
import { type CommandOrigin, toMetadata } from './commandOrigin.js'
import { type Kept, keepState, keptState } from './keptStates.js'
import { loadAggregate } from './loadAggregate.js'
import type { RuntimeState } from './runtimeState.js'
import { NO_SNAPSHOT, takeSnapshotIfDue } from './snapshots.js'
import type { Hold } from './streamLock.js'

/** A command's events as the store takes them: fresh ids, checked data, the command's origin (and the data's version) as metadata. */
export function toNewEvents(events: readonly DomainEvent[], origin: CommandOrigin): NewEvent[] {
  const metadata = toMetadata(origin)
  return events.map((e) => {
    // Version 1 goes unnamed, so the metadata of the many types never changed stays as it was.
    const version = schemaVersionOf(e.type)
    return {
      id: randomUUID(),
      type: e.type,
      data: validateNewEventData(e.type, e.data),
      metadata: version === 1 ? metadata : { ...metadata, schemaVersion: version },
    }
  })
}

export type Attempt<State, Command, Event> = {
  runtime: RuntimeState
  stream: string
  /** One command, or several without commandIds queued on the stream, with one decider. */
  entries: BatchEntry<State, Command, Event>[]
  /**
   * This process's hold of the stream lock, if the command runs under it: a state kept from before
   * the hold is brought current by reading the events after it (another process may have written).
   */
  hold: Hold | undefined
  attempts: number
  /**
   * A try without the stream lock, beside other processes: when the stream moved since this
   * process's kept state (another process wrote), it gives up with a conflict before appending, so
   * the command takes the lock. Without this, a process whose lock-free appends keep winning would
   * starve the one that holds the lock.
   */
  lockFree?: boolean
}

/**
 * Decides the entries on the stream's current state and appends all their events at once; answers
 * each entry once the append is in. A conflict retries the whole batch on a fresh read; another
 * failure of a batch's append is retried command by command, so one command's unstorable events
 * fail only that command.
 */
export async function decideAndAppend<State, Command, Event extends DomainEvent>(a: Attempt<State, Command, Event>): Promise<void> {
  const { stream, entries } = a
  const { store, warm, snapshots } = a.runtime
  const decider = entries[0]!.decider
  const commandId = entries.length === 1 ? entries[0]!.origin.commandId : undefined
  const loadOptions = (kept: Kept<State> | undefined) => ({
    ...(commandId === undefined ? {} : { commandId }),
    ...(kept ? { from: kept } : snapshots ? { snapshots } : {}),
  })
  for (let attempt = 1; ; attempt++) {
    // A conflict below drops the kept state, so a retry always reads the stream. A command with an
    // id reads the stream from its snapshot (or its first event), not from a kept state: it must
    // see whether it already ran (after the snapshot only: loadAggregate).
    const kept = commandId === undefined ? keptState<State>(warm, stream, decider) : undefined
    const current = kept && !kept.stale && (a.hold === undefined || kept.hold === a.hold)
    const loaded =
      kept && current
        ? { state: kept.state, revision: kept.revision, commandSeen: false, snapshotRevision: kept.snapshotRevision }
        : await loadAggregate(store, decider, stream, loadOptions(kept))
    const { state, revision, commandSeen } = loaded
    if (a.lockFree && kept && revision !== kept.revision)
      throw new WrongExpectedVersionError(stream, kept.revision, revision ?? 'no_stream')
    if (commandSeen) {
      entries[0]!.outcome = { ok: true, state, position: undefined, repeatedAt: loaded.commandPosition, events: [], eventIds: [] }
      return
    }
    // The snapshot this load started from, or the one known with the kept state (or, after a
    // conflict dropped it, with the one before).
    const lastSnapshot = loaded.snapshotRevision ?? kept?.snapshotRevision ?? warm.get(stream)?.snapshotRevision ?? NO_SNAPSHOT
    const decided = decideBatch(entries, state, toNewEvents)
    if (decided.newEvents.length === 0) return settleEntries(entries, decided.decisions, undefined)
    try {
      const expectedRevision = revision === undefined ? 'no_stream' : revision
      const result = await store.appendToStream(stream, decided.newEvents, { expectedRevision })
      const nextRevision = result.nextExpectedRevision
      keepState(warm, stream, {
        decider,
        state: decided.state,
        revision: nextRevision,
        hold: a.hold,
        stale: false,
        snapshotRevision: takeSnapshotIfDue(snapshots, decider.snapshot, stream, decided.state, nextRevision, lastSnapshot),
      })
      return settleEntries(entries, decided.decisions, result.position)
    } catch (error) {
      warm.delete(stream)
      if (error instanceof WrongExpectedVersionError && attempt < a.attempts) continue
      if (error instanceof WrongExpectedVersionError || entries.length === 1) throw error
      for (const entry of entries) {
        try {
          await decideAndAppend({ ...a, entries: [entry] })
        } catch (one) {
          entry.outcome = { ok: false, error: one }
        }
      }
      return
    }
  }
}
