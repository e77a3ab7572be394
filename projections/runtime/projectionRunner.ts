// Runs every projector on ONE $all subscription from the lowest stored checkpoint (each projector
// skips what it already has), and lets a command wait until all have reached a position
// (read-your-writes).
import type { Kysely } from 'kysely'
import type { EventStore, Position, Subscription } from '../../events/store/port.js'
import { START } from '../../events/store/port.js'
import type { ReadDatabase } from '../schema.js'
import { applyBatch, ensureCheckpoints } from './applyBatch.js'
import type { Projector } from './projector.js'

export const RUNNER_LIMITS = {
  batchSize: 500,
  maxWaiters: 10_000,
  catchUpMaxBatches: 1_000_000,
} as const

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>

export function createProjectionRunner(deps: { store: EventStore; db: Kysely<ReadDatabase>; projectors: readonly Projector[]; onError?: (error: unknown, projector: string) => void }) {
  const progress = new Map<string, Position>(deps.projectors.map((p) => [p.name, START]))
  const waiters = new Set<{ position: Position; resolve: (reached: boolean) => void }>()
  let subscription: Subscription | undefined

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

  async function process(events: Parameters<typeof applyBatch>[2]): Promise<void> {
    try {
      advanced(await applyBatch(deps.db, deps.projectors, events))
    } catch (error) {
      deps.onError?.(error, deps.projectors.map((p) => p.name).join(','))
      throw error
    }
  }

  return {
    async start(): Promise<void> {
      const stored = await storedCheckpoints()
      advanced(new Map(deps.projectors.map((p) => [p.name, stored.get(p.name) ?? START])))
      const from = lowest()
      subscription = deps.store.subscribeToAll({ from: from || undefined, batchSize: RUNNER_LIMITS.batchSize }, { onEvents: process })
    },

    /** Processes everything readable now, in this process; for the CLI, which runs no subscription. */
    async catchUp(): Promise<void> {
      const stored = await storedCheckpoints()
      advanced(new Map(deps.projectors.map((p) => [p.name, stored.get(p.name) ?? START])))
      let position = lowest()
      for (let i = 0; i < RUNNER_LIMITS.catchUpMaxBatches; i++) {
        const events = await deps.store.readAll({ from: position || undefined, maxCount: RUNNER_LIMITS.batchSize })
        if (events.length === 0) break
        await process(events)
        position = events[events.length - 1]!.position
      }
    },

    /** Resolves true once every projector has reached `position`, false after `timeoutMs`. */
    waitFor(position: Position | undefined, timeoutMs: number): Promise<boolean> {
      if (!position || lowest() >= position) return Promise.resolve(true)
      if (waiters.size >= RUNNER_LIMITS.maxWaiters) return Promise.resolve(false)
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

    async stop(): Promise<void> {
      await subscription?.stop()
      for (const w of waiters) w.resolve(false)
      waiters.clear()
    },
  }
}
