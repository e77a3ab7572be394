// The one consumer runtime: runs a group of consumers (all projectors; the webhook subscriber; the
// workflows) on ONE $all subscription from the lowest stored checkpoint (each consumer skips what it
// already has), one transaction per batch holding their effects and checkpoints (applyBatch.ts),
// and lets a caller wait until all have reached a position (read-your-writes). An event it cannot
// apply does not stop it in a tight loop: the consumer guard applies what comes before it, backs off
// on it and records the failure (consumerGuard.ts), then parks the event's stream for the consumer
// that keeps failing on it, so the group goes on with every other stream (parkedStreams.ts); an
// operator replays the dead letters (replayParked.ts). The group's name is the one its failures,
// dead letters and the operator's skips are recorded under.
import type { Kysely } from 'kysely'
import type { EventStore, Position, RecordedEvent, Subscription } from '../store/port.js'
import { START } from '../store/port.js'
import { type BatchOptions, CheckpointBehindError, type ParkRequest, applyBatch } from './applyBatch.js'
import { ensureCheckpoints, readCheckpoints } from './checkpoints.js'
import { type Consumer, consumerHandles } from './consumer.js'
import { type ConsumerBackoff, type ConsumerLog, createConsumerGuard } from './consumerGuard.js'
import { loadSkippedIds } from './consumerRecords.js'
import { listDeadLetters } from './deadLetters.js'
import { type ReplayOutcome, replayParkedStream } from './replayParked.js'
import { createWaiters } from './waiters.js'

/** Which dead letters of a group to replay: one event's stream (for each consumer it is parked for), or all (of one consumer). */
export type ReplaySelection = { eventId: string } | { all: true; consumer?: string }

export const CONSUMER_RUNTIME_LIMITS = {
  batchSize: 500,
  maxWaiters: 10_000,
  catchUpMaxBatches: 1_000_000,
} as const

export type ConsumerRuntime = ReturnType<typeof createConsumerRuntime<unknown>>

export function createConsumerRuntime<DB>(deps: {
  /** The group's name: its failure record and the operator's skips are kept under it. */
  name: string
  store: EventStore
  db: Kysely<DB>
  consumers: readonly Consumer<DB>[]
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
  batchSize?: number
  /** Live, read at most once per interval (a group no command waits on for most events). */
  minBatchIntervalMs?: number
  maxWaiters?: number
  synchronousCommit?: BatchOptions['synchronousCommit']
  /** Called after each applied batch with the events in it (a subscriber wakes its dispatcher). */
  onApplied?: (events: RecordedEvent[]) => void
}) {
  const compare = (a: Position, b: Position) => deps.store.comparePositions(a, b)
  const progress = new Map<string, Position>(deps.consumers.map((c) => [c.name, START]))
  const waiters = createWaiters(deps.maxWaiters ?? CONSUMER_RUNTIME_LIMITS.maxWaiters)
  const batchSize = deps.batchSize ?? CONSUMER_RUNTIME_LIMITS.batchSize
  let subscription: Subscription | undefined
  let caughtUp = false
  const caughtUpListeners = new Set<() => void>()

  // A failing consumer will not reach a waiter's position until the failure clears: answer now
  // rather than hold every write for the caller's whole timeout.
  const newGuard = () =>
    createConsumerGuard({ name: deps.name, db: deps.db, log: deps.log, backoff: deps.backoff, onFailing: () => waiters.releaseAll() })
  // A stopped guard stays stopped (it ends back-offs at once): each start takes a fresh one.
  let guard = newGuard()

  const lowest = (): Position => {
    let min: Position | undefined
    for (const p of progress.values()) if (min === undefined || compare(p, min) < 0) min = p
    return min ?? START
  }

  function advanced(positions: ReadonlyMap<string, Position>): void {
    for (const [name, position] of positions) {
      if (compare(position, progress.get(name) ?? START) > 0) progress.set(name, position)
    }
    waiters.reachedBy(lowest(), compare)
  }

  async function loadStored(): Promise<void> {
    await guard.start()
    await ensureCheckpoints(
      deps.db,
      deps.consumers.map((c) => c.name),
    )
    const stored = await readCheckpoints(deps.db)
    // Exactly the stored positions, also when lower than this process saw (a checkpoint reset to
    // replay from zero): the subscription starts from them.
    for (const c of deps.consumers) progress.set(c.name, stored.get(c.name) ?? START)
    committed.clear()
    advanced(new Map())
  }

  // Checkpoints this process saw commit (a batch with nothing to write commits nothing).
  const committed = new Map<string, Position>()

  const applyOnce = async (events: RecordedEvent[], parks: readonly ParkRequest[] = []): Promise<void> => {
    const options = { isSkipped: guard.isSkipped, committed, synchronousCommit: deps.synchronousCommit, group: deps.name, parks }
    const after = await applyBatch(deps.db, deps.consumers, events, options)
    // The same rule applyBatch writes by: it wrote when a consumer handled an event nobody skipped.
    const wrote = events.some((e) => deps.consumers.some((c) => consumerHandles(c, e.type)) && !guard.isSkipped(e.id))
    if (wrote) for (const [name, position] of after) committed.set(name, position)
    advanced(after)
    deps.onApplied?.(events)
  }

  /** Reads $all from the lowest checkpoint (up to `through` when given) and applies it batch by batch. */
  async function applyReadable(apply: (events: RecordedEvent[]) => Promise<void>, through?: Position): Promise<void> {
    let position = lowest()
    for (let i = 0; i < CONSUMER_RUNTIME_LIMITS.catchUpMaxBatches; i++) {
      const read = await deps.store.readAll({ from: position || undefined, maxCount: batchSize })
      const events = through === undefined ? read : read.filter((e) => compare(e.position, through) <= 0)
      if (events.length === 0) return
      await apply(events)
      position = events[events.length - 1]!.position
      if (events.length < read.length) return
    }
  }

  /**
   * The database lost commits this process had seen (it crashed and restarted): the effects and
   * checkpoints went together, so the stored checkpoints are consistent; replay from them up to
   * the end of the batch in hand, which the subscription then moves past.
   */
  async function replayLost(stored: ReadonlyMap<string, Position>, through: Position): Promise<void> {
    const message = 'consumer checkpoints are behind what this process committed (the database lost commits); replaying from them'
    deps.log.error({ consumer: deps.name }, message)
    committed.clear()
    for (const [name, position] of stored) {
      committed.set(name, position)
      progress.set(name, position)
    }
    await applyReadable((events) => applyOnce(events), through)
  }

  const apply = async (events: RecordedEvent[], parks: readonly ParkRequest[] = []): Promise<void> => {
    try {
      await applyOnce(events, parks)
    } catch (error) {
      if (!(error instanceof CheckpointBehindError)) throw error
      await replayLost(error.stored, events[events.length - 1]!.position)
    }
  }

  function markCaughtUp(): void {
    caughtUp = true
    for (const listener of [...caughtUpListeners]) listener()
    caughtUpListeners.clear()
  }

  return {
    name: deps.name,
    running: (): boolean => subscription !== undefined,

    async start(): Promise<void> {
      if (subscription) return
      caughtUp = false
      guard = newGuard()
      await loadStored()
      const from = lowest()
      const current = guard
      subscription = deps.store.subscribeToAll(
        { from: from || undefined, batchSize, minBatchIntervalMs: deps.minBatchIntervalMs },
        {
          onEvents: (events) => current.handle(events, apply),
          onCaughtUp: markCaughtUp,
        },
      )
    },

    /**
     * Processes everything readable now, in this process; for the CLI, which runs no subscription.
     * Honours recorded skips; throws on an event it cannot apply (a one-shot command does not wait).
     */
    async catchUp(): Promise<void> {
      await loadStored()
      await applyReadable((events) => apply(events))
    },

    /**
     * Replays the group's dead letters (replayParked.ts), stream by stream in the order they are
     * listed; works in a process that runs no subscription (the CLI). `actor` goes in the audit.
     */
    async replayParked(selection: ReplaySelection, actor: string): Promise<ReplayOutcome[]> {
      const filter = 'eventId' in selection ? { eventId: selection.eventId } : { consumer: selection.consumer }
      const letters = await listDeadLetters(deps.db, { group: deps.name, ...filter })
      const targets = [...new Map(letters.map((l) => [`${l.consumer}\u0000${l.stream}`, l])).values()]
      const skipped = await loadSkippedIds(deps.db, deps.name)
      const isSkipped = (eventId: string) => skipped.has(eventId)
      const outcomes: ReplayOutcome[] = []
      for (const target of targets) {
        const consumer = deps.consumers.find((c) => c.name === target.consumer)
        if (!consumer) throw new Error(`dead letters of ${target.consumer}, which group ${deps.name} no longer runs`)
        const replayDeps = { db: deps.db, store: deps.store, group: deps.name, consumer, isSkipped, actor }
        outcomes.push(await replayParkedStream(replayDeps, target.stream))
      }
      return outcomes
    },

    /** True once every consumer has reached `position`. */
    reached: (position: Position): boolean => compare(lowest(), position) >= 0,

    /** Resolves true once every consumer has reached `position`, false after `timeoutMs` or while failing. */
    waitFor(position: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!position || compare(lowest(), position) >= 0) return Promise.resolve(true)
      if (guard.failing()) return Promise.resolve(false)
      return waiters.add(position, timeoutMs) ?? Promise.resolve(false)
    },

    /** The caught-up signal: the subscription has read up to the head once and is live. */
    caughtUp: (): boolean => caughtUp,
    whenCaughtUp: (): Promise<void> => (caughtUp ? Promise.resolve() : new Promise((resolve) => caughtUpListeners.add(resolve))),

    progress: (): ReadonlyMap<string, Position> => progress,

    /** Each consumer's checkpoint name and the event types it handles (every type when unset): what its lag counts. */
    members: (): { name: string; handles?: ReadonlySet<string> }[] => deps.consumers.map((c) => ({ name: c.name, handles: c.handles })),

    health: () => guard.health(),

    async stop(): Promise<void> {
      const current = subscription
      subscription = undefined
      // The subscription first (it stops asking for batches), then the guard (a back-off ends at once).
      const stopping = current?.stop()
      guard.stop()
      await stopping
      waiters.releaseAll()
    },
  }
}
