// Group commit: appends that arrive together are written in one transaction, so many concurrent
// writers share one fsync. Up to two batches commit at once, on two connections: a batch's round
// trip and fsync overlap the other's work, and a queue big enough is split in two so both cores
// write. A stream is never in two batches at once, so appends to one stream commit in queue order.
// Bounded: events per batch, commits in flight and appends waiting all have a named maximum.
import type pg from 'pg'
import type { AppendResult } from '../port.js'
import { type AppendOutcome, type PendingAppend, appendBatch, appendBatchInTransaction } from './appendBatch.js'

export const GROUP_COMMIT_LIMITS = {
  maxEventsPerBatch: 2_000,
  // Two: measured best on two cores (one leaves a core idle during each round trip and fsync;
  // more split batches so small that their fixed cost dominates).
  maxConcurrentCommits: 2,
  // A queue is split over the free commit slots only when each part gets at least this many
  // appends; below it one batch costs less than two.
  minAppendsPerSplit: 4,
  maxWaitingAppends: 20_000,
} as const

export class AppendQueueFullError extends Error {
  override readonly name = 'AppendQueueFullError'
}

type Waiting = PendingAppend & { resolve: (r: AppendResult) => void; reject: (e: Error) => void }

export function createGroupCommitter(pool: pg.Pool, onCommitted: (position: AppendResult['position']) => void) {
  let waiting: Waiting[] = []
  let inFlight = 0
  let pumpScheduled = false
  // Streams with an append in a batch being committed: their next appends wait for it.
  const busyStreams = new Set<string>()

  /** Takes up to `maxAppends` from the queue in order, skipping streams already busy or taken. */
  function takeBatch(maxAppends: number): Waiting[] {
    const batch: Waiting[] = []
    const left: Waiting[] = []
    let events = 0
    for (const next of waiting) {
      const fits = batch.length === 0 || (batch.length < maxAppends && events + next.events.length <= GROUP_COMMIT_LIMITS.maxEventsPerBatch)
      if (fits && !busyStreams.has(next.stream)) {
        batch.push(next)
        busyStreams.add(next.stream)
        events += next.events.length
      } else left.push(next)
    }
    waiting = left
    return batch
  }

  // Appends with an in-transaction step (inline projections) commit with it; the others autocommit.
  const write = (appends: PendingAppend[]) =>
    appends.some((a) => a.inTransaction !== undefined) ? appendBatchInTransaction(pool, appends) : appendBatch(pool, appends)

  async function commit(batch: Waiting[]): Promise<void> {
    try {
      let outcomes: AppendOutcome[]
      try {
        outcomes = await write(batch)
      } catch (error) {
        if (batch.length === 1) throw error
        // One bad append (a duplicate event id, a stream another process just created, a step
        // that throws) must not fail its neighbours: retry each alone.
        outcomes = []
        for (const one of batch) {
          try {
            outcomes.push(...(await write([one])))
          } catch (e) {
            outcomes.push({ ok: false, error: e as Error })
          }
        }
      }
      let last: AppendResult['position'] | undefined
      outcomes.forEach((outcome, i) => {
        if (outcome.ok) {
          batch[i]!.resolve(outcome.result)
          if (!last || outcome.result.position > last) last = outcome.result.position
        } else batch[i]!.reject(outcome.error)
      })
      if (last) onCommitted(last)
    } catch (error) {
      for (const w of batch) w.reject(error as Error)
    }
  }

  function pump(): void {
    pumpScheduled = false
    while (inFlight < GROUP_COMMIT_LIMITS.maxConcurrentCommits && waiting.length > 0) {
      const freeSlots = GROUP_COMMIT_LIMITS.maxConcurrentCommits - inFlight
      const parts = Math.max(1, Math.min(freeSlots, Math.floor(waiting.length / GROUP_COMMIT_LIMITS.minAppendsPerSplit)))
      const batch = takeBatch(Math.ceil(waiting.length / parts))
      if (batch.length === 0) return // every waiting append's stream is busy: a finishing commit pumps again
      inFlight += 1
      void commit(batch).finally(() => {
        inFlight -= 1
        for (const w of batch) busyStreams.delete(w.stream)
        schedulePump()
      })
    }
  }

  /** Pumps once the current callbacks are done, so appends that arrive together share a batch. */
  function schedulePump(): void {
    if (pumpScheduled) return
    pumpScheduled = true
    setImmediate(pump)
  }

  return {
    append(pending: PendingAppend): Promise<AppendResult> {
      if (waiting.length >= GROUP_COMMIT_LIMITS.maxWaitingAppends) {
        return Promise.reject(new AppendQueueFullError('Too many appends waiting to commit'))
      }
      return new Promise<AppendResult>((resolve, reject) => {
        waiting.push({ ...pending, resolve, reject })
        schedulePump()
      })
    },
    get idle(): boolean {
      return inFlight === 0 && waiting.length === 0
    },
  }
}
