// Loads an aggregate from its stream, asks the pure decider, appends with the expected revision;
// on a concurrent write (another process) it reloads and decides again, a bounded number of times.
// Inside this process, commands on one stream wait for each other (streamQueue.ts); across
// processes, a stream that has just seen a concurrent write is decided under its stream lock
// (streamLock.ts), so a hot stream shared by several processes is decided in turn too. An aggregate
// whose decider has a snapshot codec loads from its stream's snapshot and folds only the events
// after it (snapshots.ts), so its commands cost the same however long its history.
import { randomUUID } from 'node:crypto'
import type { Decider, DomainEvent } from '../../domain/decider.js'
import { parseEventData, validateNewEventData } from '../../events/catalog.js'
import { type EventStore, type Position, STORE_LIMITS, WrongExpectedVersionError } from '../../events/store/port.js'
import { type BatchEntry, type EntryOutcome, decideBatch, settleEntries, takeBatch } from './commandBatch.js'
import { type CommandOrigin, toMetadata } from './commandOrigin.js'
import { NO_SNAPSHOT, type Snapshotting, readSnapshot, saveInBackground, snapshotDue } from './snapshots.js'
import { type HeldStreamLock, type StreamLock, noStreamLock } from './streamLock.js'
import { type StreamQueue, createStreamQueue } from './streamQueue.js'

export const COMMAND_LIMITS = {
  maxAttempts: 5,
  /**
   * Tries of a command that holds the stream lock: its conflicts can only come from other processes'
   * lock-free tries (one per command of theirs, each then sees this one's writes and takes the
   * lock), so it outlasts them rather than failing after five.
   */
  maxAttemptsUnderLock: 50,
  /**
   * Most events one load folds: a whole stream, or the events after its snapshot (or after the
   * state this process kept). Past it the aggregate needs a snapshot codec (domain/snapshot.ts),
   * or, when it has one, `snapshots rebuild` (its snapshot was lost or is of an older version).
   */
  maxEventsPerLoad: 100_000,
  /** After a concurrent write from another process, the stream's commands take the stream lock this long. */
  contendedForMs: 2_000,
  /** Streams remembered as contended at once; the oldest is forgotten past it. */
  maxContendedStreams: 10_000,
  /**
   * Commands of this process decided in one hold of a stream's lock while more wait here: fewer
   * hand-overs between processes, and past it the other processes get their turn.
   */
  maxCommandsPerLockHold: 32,
  /**
   * Streams whose last known state this process keeps after their commands are done: the next
   * command on one reads only the events after it (a customer saving its data again, say).
   */
  maxKeptStates: 2_000,
} as const

export type CommandResult<State> = {
  state: State
  /** Position of the last appended event; undefined when the command produced no events. */
  position: Position | undefined
  events: DomainEvent[]
  /** A command with an id that had run already: where its event is (a repeat's read-your-writes position). */
  repeatedAt?: Position
}

/** What loading a stream needs of a decider (never decide, so any command type will do). */
export type Evolver<State, Event> = Pick<Decider<State, never, Event>, 'initialState' | 'evolve' | 'snapshot'>

export class StreamTooLongError extends Error {
  override readonly name = 'StreamTooLongError'
  constructor(
    readonly stream: string,
    readonly maxEvents: number,
  ) {
    super(`Stream ${stream} has more than ${maxEvents} events to fold (past its snapshot, if any)`)
  }
}

type Loaded<State> = {
  state: State
  revision: bigint | undefined
  commandSeen: boolean
  /** Where the command's event was stored when it had run already (its answer's read-your-writes position). */
  commandPosition?: Position | undefined
  /** The revision of the snapshot the load started from (NO_SNAPSHOT: none usable); undefined when it started from `from`. */
  snapshotRevision: bigint | undefined
}

function toNewEvents(events: readonly DomainEvent[], origin: CommandOrigin) {
  const metadata = toMetadata(origin)
  return events.map((e) => ({ id: randomUUID(), type: e.type, data: validateNewEventData(e.type, e.data), metadata }))
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
  let from = revision === undefined ? 0n : revision + 1n
  let folded = 0
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: STORE_LIMITS.maxReadCount })
    folded += page.length
    if (folded > maxEvents) throw new StreamTooLongError(stream, maxEvents)
    for (const recorded of page) {
      state = decider.evolve(state, { type: recorded.type, data: parseEventData(recorded.type, recorded.data) } as Event)
      revision = recorded.revision
      if (options.commandId !== undefined && recorded.metadata.commandId === options.commandId) {
        commandSeen = true
        commandPosition = recorded.position
      }
    }
    if (page.length < STORE_LIMITS.maxReadCount || revision === undefined) break
    from = revision + 1n
  }
  return { state, revision, commandSeen, commandPosition, snapshotRevision }
}

/**
 * loadAggregate for a read outside a command (the facts a decision needs from other streams): from
 * the state this process keeps for the stream, reading only the events after it, and kept in turn.
 */
export async function loadLatest<State, Event extends DomainEvent>(
  store: EventStore,
  decider: Evolver<State, Event>,
  stream: string,
): Promise<{ state: State; revision: bigint | undefined }> {
  const { warm, snapshots } = coordinationOf(store)
  const kept = keptState<State>(warm, stream, decider)
  const loaded = await loadAggregate(store, decider, stream, kept ? { from: kept } : snapshots ? { snapshots } : {})
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

/**
 * The state a command left on its stream. While more commands wait on that stream, the next one
 * decides on it as it is (a hot stream would otherwise cost a longer read per command); once none
 * waits it goes stale, and the next command reads only the events after it (another process may
 * have written). Either way the append's expected revision proves it current. At most
 * maxKeptStates are kept, the least recently used forgotten first.
 */
type Warm = {
  decider: unknown
  state: unknown
  revision: bigint
  hold: Hold | undefined
  stale: boolean
  /** The stream's newest snapshot this process read or saved (NO_SNAPSHOT: none), so it knows when the next is due. */
  snapshotRevision: bigint
}

function keepState(warm: Map<string, Warm>, stream: string, kept: Warm): void {
  warm.delete(stream)
  if (warm.size >= COMMAND_LIMITS.maxKeptStates) warm.delete(warm.keys().next().value!)
  warm.set(stream, kept)
}

/** This process's hold of a stream's lock, kept across the commands queued behind each other. */
type Hold = { lock: HeldStreamLock; commands: number }

/** How commands on one event store take turns: one per store (each process opens one; tests open several). */
type Coordination = {
  queue: StreamQueue
  warm: Map<string, Warm>
  lock: StreamLock
  /** Streams another process wrote to concurrently, until when their commands take the lock. */
  contendedUntil: Map<string, number>
  holds: Map<string, Hold>
  /** Commands (without a commandId) waiting on each stream: the first one to run decides them together (commandBatch.ts). */
  waitingEntries: Map<string, AnyEntry[]>
  /** Where this process reads and takes snapshots; undefined: it does not (every load folds from the first event). */
  snapshots: Snapshotting | undefined
}

/** Entries of any aggregate in one map; a batch only ever joins entries of one decider, so of one State. */
type AnyEntry = BatchEntry<unknown, unknown, DomainEvent>

const coordinations = new WeakMap<EventStore, Coordination>()

function coordinationOf(store: EventStore): Coordination {
  let coordination = coordinations.get(store)
  if (!coordination) {
    coordination = {
      queue: createStreamQueue(),
      warm: new Map(),
      lock: noStreamLock,
      contendedUntil: new Map(),
      holds: new Map(),
      waitingEntries: new Map(),
      snapshots: undefined,
    }
    coordinations.set(store, coordination)
  }
  return coordination
}

/** Makes every command on `store` in this process use `lock` for contended streams (commandRuntime.ts). */
export function useStreamLock(store: EventStore, lock: StreamLock): void {
  coordinationOf(store).lock = lock
}

/** Makes every command on `store` in this process read and take snapshots there (commandRuntime.ts); undefined: none. */
export function useSnapshots(store: EventStore, snapshots: Snapshotting | undefined): void {
  coordinationOf(store).snapshots = snapshots
}

/**
 * After an append took `stream` to `revision`: starts a snapshot of `state` when one is due, and
 * answers the newest snapshot revision this process then knows of.
 */
function takeSnapshotIfDue<State>(
  snapshots: Snapshotting | undefined,
  decider: Evolver<State, never>,
  stream: string,
  state: State,
  revision: bigint,
  lastSnapshot: bigint,
): bigint {
  const codec = decider.snapshot
  if (!snapshots || !codec || !snapshotDue(codec.everyEvents, revision, lastSnapshot)) return lastSnapshot
  return saveInBackground(snapshots, codec, stream, state, revision) ? revision : lastSnapshot
}

function isContended(coordination: Coordination, stream: string): boolean {
  const until = coordination.contendedUntil.get(stream)
  if (until === undefined) return false
  if (until > Date.now()) return true
  coordination.contendedUntil.delete(stream)
  return false
}

function markContended(coordination: Coordination, stream: string): void {
  const contended = coordination.contendedUntil
  contended.delete(stream)
  if (contended.size >= COMMAND_LIMITS.maxContendedStreams) contended.delete(contended.keys().next().value!)
  contended.set(stream, Date.now() + COMMAND_LIMITS.contendedForMs)
}

export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  origin: CommandOrigin,
  options: { newStream?: boolean } = {},
): Promise<CommandResult<State>> {
  if (options.newStream && origin.commandId === undefined) {
    // The id was generated for this command, so the stream is almost surely empty and nobody else
    // can be deciding on it: skip the queue and the read, and let the store's no_stream check prove
    // it. On a conflict, take the queued path.
    const state = decider.initialState()
    const events = decider.decide(command, state)
    if (events.length === 0) return { state, position: undefined, events }
    try {
      const result = await store.appendToStream(stream, toNewEvents(events, origin), { expectedRevision: 'no_stream' })
      const next = events.reduce(decider.evolve, state)
      const { warm, snapshots } = coordinationOf(store)
      const revision = result.nextExpectedRevision
      keepState(warm, stream, {
        decider,
        state: next,
        revision,
        hold: undefined,
        stale: true,
        snapshotRevision: takeSnapshotIfDue(snapshots, decider, stream, next, revision, NO_SNAPSHOT),
      })
      return { state: next, position: result.position, events }
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error
    }
  }
  const coordination = coordinationOf(store)
  const { queue, warm } = coordination
  const entry: BatchEntry<State, Command, Event> = { decider, command, origin }
  // A command with an id reads its whole stream to see whether it already ran: it is decided alone.
  const batchable = origin.commandId === undefined
  if (batchable) waitingOf(coordination, stream).push(entry as unknown as AnyEntry)
  return queue.run(stream, async () => {
    try {
      // Answered already when an earlier command's turn decided it in its batch.
      if (!entry.outcome) {
        const entries = batchable
          ? (takeBatch(waitingOf(coordination, stream), entry as unknown as AnyEntry) as unknown as (typeof entry)[])
          : [entry]
        forgetIfEmpty(coordination, stream)
        try {
          await runTurn(coordination, store, stream, entries)
        } catch (error) {
          for (const e of entries) e.outcome ??= { ok: false, error }
        }
      }
      return answer(entry.outcome!)
    } finally {
      await releaseHoldIfDone(coordination, stream)
      // Nobody behind this command: the kept state goes stale (the next command catches it up).
      const kept = warm.get(stream)
      if (kept && queue.waiting(stream) <= 1) kept.stale = true
    }
  })
}

function waitingOf(coordination: Coordination, stream: string): AnyEntry[] {
  let waiting = coordination.waitingEntries.get(stream)
  if (!waiting) {
    waiting = []
    coordination.waitingEntries.set(stream, waiting)
  }
  return waiting
}

function forgetIfEmpty(coordination: Coordination, stream: string): void {
  if (coordination.waitingEntries.get(stream)?.length === 0) coordination.waitingEntries.delete(stream)
}

function answer<State>(outcome: EntryOutcome<State>): CommandResult<State> {
  if (!outcome.ok) throw outcome.error
  return {
    state: outcome.state,
    position: outcome.position,
    events: outcome.events,
    ...(outcome.repeatedAt ? { repeatedAt: outcome.repeatedAt } : {}),
  }
}

/** One turn on a stream: decide and append `entries`, under the stream lock when the stream is contended across processes. */
async function runTurn<State, Command, Event extends DomainEvent>(
  coordination: Coordination,
  store: EventStore,
  stream: string,
  entries: BatchEntry<State, Command, Event>[],
): Promise<void> {
  const { queue, warm, lock } = coordination
  const attempt = (hold: Hold | undefined, attempts: number, lockFree = false) =>
    decideAndAppend({ store, stream, entries, warm, hold, attempts, snapshots: coordination.snapshots, lockFree })
  if (lock === noStreamLock) return attempt(undefined, COMMAND_LIMITS.maxAttempts)
  // A hold this process keeps for the commands queued here counts as contended, so it is released.
  // Commands queued behind this one make the stream hot here: take the lock, so another process's
  // lock holder is never outrun by a stream of lock-free appends from this one.
  if (!coordination.holds.has(stream) && !isContended(coordination, stream) && queue.waiting(stream) <= 1) {
    // Uncontended and alone: one try without the lock, as fast as a single process.
    try {
      return await attempt(undefined, 1, true)
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error
    }
  }
  markContended(coordination, stream)
  // Commands here run one at a time per stream (the queue), so the hold needs no lock of its own.
  let hold = coordination.holds.get(stream)
  if (!hold) {
    hold = { lock: await lock.acquire(stream), commands: 0 }
    coordination.holds.set(stream, hold)
  }
  hold.commands++
  return attempt(hold, COMMAND_LIMITS.maxAttemptsUnderLock)
}

/**
 * After each command's turn (a batch's commands included, whose turns only hand back their
 * answers): the hold of the stream lock is released when nobody waits behind, or when it has
 * served its share, so the other processes get their turn.
 */
async function releaseHoldIfDone(coordination: Coordination, stream: string): Promise<void> {
  const hold = coordination.holds.get(stream)
  if (!hold) return
  if (coordination.queue.waiting(stream) <= 1 || hold.commands >= COMMAND_LIMITS.maxCommandsPerLockHold) {
    coordination.holds.delete(stream)
    await hold.lock.release()
  }
}

type Attempt<State, Command, Event> = {
  store: EventStore
  stream: string
  /** One command, or several without commandIds queued on the stream, with one decider. */
  entries: BatchEntry<State, Command, Event>[]
  warm: Map<string, Warm>
  /**
   * This process's hold of the stream lock, if the command runs under it: a state kept from before
   * the hold is brought current by reading the events after it (another process may have written).
   */
  hold: Hold | undefined
  attempts: number
  snapshots: Snapshotting | undefined
  /**
   * A try without the stream lock, beside other processes: when the stream moved since this
   * process's kept state (another process wrote), it gives up with a conflict before appending, so
   * the command takes the lock. Without this, a process whose lock-free appends keep winning would
   * starve the one that holds the lock.
   */
  lockFree?: boolean
}

type Kept<State> = { state: State; revision: bigint; hold: Hold | undefined; stale: boolean; snapshotRevision: bigint }

function keptState<State>(warm: Map<string, Warm>, stream: string, decider: unknown): Kept<State> | undefined {
  const kept = warm.get(stream)
  // Only the same decider's state, whose type is the State this decider folds.
  return kept && kept.decider === decider
    ? { state: kept.state as State, revision: kept.revision, hold: kept.hold, stale: kept.stale, snapshotRevision: kept.snapshotRevision }
    : undefined
}

/**
 * Decides the entries on the stream's current state and appends all their events at once; answers
 * each entry once the append is in. A conflict retries the whole batch on a fresh read; another
 * failure of a batch's append is retried command by command, so one command's unstorable events
 * fail only that command.
 */
async function decideAndAppend<State, Command, Event extends DomainEvent>(a: Attempt<State, Command, Event>): Promise<void> {
  const { store, stream, entries, warm, snapshots } = a
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
      entries[0]!.outcome = { ok: true, state, position: undefined, repeatedAt: loaded.commandPosition, events: [] }
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
        snapshotRevision: takeSnapshotIfDue(snapshots, decider, stream, decided.state, nextRevision, lastSnapshot),
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
