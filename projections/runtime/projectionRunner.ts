// Runs every projector on ONE $all subscription from the lowest stored checkpoint (each projector
// skips what it already has), and lets a command wait until all have reached a position
// (read-your-writes). An event it cannot apply does not stop it in a tight loop: the consumer
// guard applies what comes before it, backs off on it and records the failure (consumerGuard.ts).
import type { Kysely } from 'kysely'
import type { EventStore, Position, RecordedEvent, Subscription } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { CheckpointBehindError, applyBatch, ensureCheckpoints } from './applyBatch.js'
import { type ConsumerBackoff, type ConsumerLog, createConsumerGuard } from './consumerGuard.js'
import { PROJECTIONS_CONSUMER } from './consumerRecords.js'
import type { Projector } from './projector.js'

export const RUNNER_LIMITS = {
  batchSize: 500,
  maxWaiters: 10_000,
  catchUpMaxBatches: 1_000_000,
} as const

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>

export function createProjectionRunner(deps: {
  store: EventStore
  db: Kysely<ReadDatabase>
  projectors: readonly Projector[]
  log: ConsumerLog
  backoff?: Partial<ConsumerBackoff>
}) {
  const progress = new Map<string, Position>(deps.projectors.map((p) => [p.name, START]))
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>()
  let subscription: Subscription | undefined

  // A failing runner will not reach a waiter's position until the failure clears: answer now
  // rather than hold every write for PROJECTION_WAIT_MS.
  const releaseWaiters = () => {
    for (const w of waiters) w.resolve(false)
    waiters.clear()
  }
  const guard = createConsumerGuard({ name: PROJECTIONS_CONSUMER, db: deps.db, log: deps.log, backoff: deps.backoff, onFailing: releaseWaiters })

  const lowest = (): Position => {
    let min: Position | undefined
    for (const p of progress.values()) if (min === undefined || p < min) min = p
    return min ?? START
  }

  function advanced(positions: ReadonlyMap<string, Position>): void {
    for (const [name, position] of positions) {
      if (position > (progress.get(name) ?? START)) progress.set(name, position)
    }
    const low = lowest()
    for (const w of [...waiters]) {
      if (low >= w.position) {
        waiters.delete(w)
        w.resolve(true)
      }
    }
  }

  async function storedCheckpoints(): Promise<Map<string, Position>> {
    await ensureCheckpoints(deps.db, deps.projectors.map((p) => p.name))
    const rows = await deps.db.selectFrom('projection_checkpoints').select(['name', 'position']).execute()
    return new Map(rows.map((r) => [r.name, r.position as Position]))
  }

  // Checkpoints this process saw commit (a batch with nothing to write commits nothing).
  const committed = new Map<string, Position>()

  const applyOnce = async (events: RecordedEvent[]): Promise<void> => {
    // The same rule applyBatch writes by: a handled event no operator skipped.
    const relevant = events.some((e) => deps.projectors.some((p) => p.handles.has(e.type)) && !guard.isSkipped(e.id))
    const after = await applyBatch(deps.db, deps.projectors, events, guard.isSkipped, committed)
    if (relevant) for (const [name, position] of after) committed.set(name, position)
    advanced(after)
  }

  /**
   * The database lost commits this process had seen (it crashed and restarted): the rows and
   * checkpoints went together, so the stored checkpoints are consistent; replay from them up to
   * the end of the batch in hand, which the subscription then moves past.
   */
  async function replayLost(stored: ReadonlyMap<string, Position>, through: Position): Promise<void> {
    deps.log.error({ consumer: PROJECTIONS_CONSUMER }, 'projection checkpoints are behind what this process committed (the database lost commits); replaying from them')
    committed.clear()
    for (const [name, position] of stored) {
      committed.set(name, position)
      progress.set(name, position)
    }
    await applyReadable(applyOnce, through)
  }

  /** Reads $all from the lowest checkpoint (up to `through` when given) and applies it batch by batch. */
  async function applyReadable(applyEvents: (events: RecordedEvent[]) => Promise<void>, through?: Position): Promise<void> {
    let position = lowest()
    for (let i = 0; i < RUNNER_LIMITS.catchUpMaxBatches; i++) {
      const read = await deps.store.readAll({ from: position || undefined, maxCount: RUNNER_LIMITS.batchSize })
      const events = through === undefined ? read : read.filter((e) => deps.store.comparePositions(e.position, through) <= 0)
      if (events.length === 0) return
      await applyEvents(events)
      position = events[events.length - 1]!.position
      if (events.length < read.length) return
    }
  }

  const apply = async (events: RecordedEvent[]): Promise<void> => {
    try {
      await applyOnce(events)
    } catch (error) {
      if (!(error instanceof CheckpointBehindError)) throw error
      await replayLost(error.stored, events[events.length - 1]!.position)
    }
  }

  return {
    async start(): Promise<void> {
      await guard.start()
      const stored = await storedCheckpoints()
      advanced(new Map(deps.projectors.map((p) => [p.name, stored.get(p.name) ?? START])))
      const from = lowest()
      subscription = deps.store.subscribeToAll({ from: from || undefined, batchSize: RUNNER_LIMITS.batchSize }, {
        onEvents: (events) => guard.handle(events, apply),
      })
    },

    /**
     * Processes everything readable now, in this process; for the CLI, which runs no subscription.
     * Honours recorded skips; throws on an event it cannot apply (a one-shot command does not wait).
     */
    async catchUp(): Promise<void> {
      await guard.start()
      const stored = await storedCheckpoints()
      advanced(new Map(deps.projectors.map((p) => [p.name, stored.get(p.name) ?? START])))
      await applyReadable(apply)
    },

    /** Resolves true once every projector has reached `position`, false after `timeoutMs` or while failing. */
    waitFor(position: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!position || lowest() >= position) return Promise.resolve(true)
      if (guard.failing() || waiters.size >= RUNNER_LIMITS.maxWaiters) return Promise.resolve(false)
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (reached: boolean) => {
            clearTimeout(timer)
            resolve(reached)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          resolve(false)
        }, timeoutMs)
        waiters.add(waiter)
      })
    },

    progress: (): ReadonlyMap<string, Position> => progress,

    health: () => guard.health(),

    async stop(): Promise<void> {
      // The subscription first (it stops asking for batches), then the guard (a back-off ends at once).
      const stopping = subscription?.stop()
      guard.stop()
      await stopping
      releaseWaiters()
    },
  }
}
