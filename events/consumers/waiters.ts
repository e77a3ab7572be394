// Callers waiting until a consumer reaches a position (read-your-writes), bounded in number and in
// time: each resolves true when reached, false on its timeout or when released (the consumer fails
// or stops, and will not get there soon).
import type { Position } from '../store/port.js'

type Waiter = { position: Position; resolve: (reached: boolean) => void }

export type Waiters = ReturnType<typeof createWaiters>

export function createWaiters(maxWaiters: number) {
  const waiters = new Set<Waiter>()
  return {
    /** Resolves when `reachedBy` is called with a position at or past `position`; undefined when full. */
    add(position: Position, timeoutMs: number): Promise<boolean> | undefined {
      if (waiters.size >= maxWaiters) return undefined
      return new Promise((resolve) => {
        const waiter: Waiter = {
          position,
          resolve: (reached) => {
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

    reachedBy(position: Position, compare: (a: Position, b: Position) => number): void {
      for (const w of [...waiters]) {
        if (compare(position, w.position) >= 0) {
          waiters.delete(w)
          w.resolve(true)
        }
      }
    },

    releaseAll(): void {
      for (const w of waiters) w.resolve(false)
      waiters.clear()
    },
  }
}
