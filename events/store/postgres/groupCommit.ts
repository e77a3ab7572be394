// Group commit: appends that arrive while a commit is in flight are written together in the next
// transaction, so many concurrent writers share one fsync. Bounded: batches per commit, commits in
// flight and appends waiting all have a named maximum.
import type pg from 'pg'
import type { AppendResult } from '../port.js'
import { type AppendOutcome, type PendingAppend, appendBatch } from './appendBatch.js'

export const GROUP_COMMIT_LIMITS = {
  maxEventsPerBatch: 2_000,
  // One commit in flight: measured best here (bigger batches, half the Postgres CPU of four).
  maxConcurrentCommits: 1,
  maxWaitingAppends: 20_000,
} as const

export class AppendQueueFullError extends Error {
  override readonly name = 'AppendQueueFullError'
}

type Waiting = PendingAppend & { resolve: (r: AppendResult) => void; reject: (e: Error) => void }

export function createGroupCommitter(pool: pg.Pool, onCommitted: (position: AppendResult['position']) => void) {
  const waiting: Waiting[] = []
  let inFlight = 0

  function takeBatch(): Waiting[] {
    const batch: Waiting[] = []
    let events = 0
    while (waiting.length > 0) {
      const next = waiting[0]!
      if (batch.length > 0 && events + next.events.length > GROUP_COMMIT_LIMITS.maxEventsPerBatch) break
      batch.push(waiting.shift()!)
      events += next.events.length
    }
    return batch
  }

  async function commit(batch: Waiting[]): Promise<void> {
    try {
      let outcomes: AppendOutcome[]
      try {
        outcomes = await appendBatch(pool, batch)
      } catch (error) {
        if (batch.length === 1) throw error
        // One bad append (say a duplicate event id) must not fail its neighbours: retry each alone.
        outcomes = []
        for (const one of batch) {
          try {
            outcomes.push(...(await appendBatch(pool, [one])))
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
    while (inFlight < GROUP_COMMIT_LIMITS.maxConcurrentCommits && waiting.length > 0) {
      const batch = takeBatch()
      inFlight += 1
      void commit(batch).finally(() => {
        inFlight -= 1
        pump()
      })
    }
  }

  return {
    append(pending: PendingAppend): Promise<AppendResult> {
      if (waiting.length >= GROUP_COMMIT_LIMITS.maxWaitingAppends) {
        return Promise.reject(new AppendQueueFullError('Too many appends waiting to commit'))
      }
      return new Promise<AppendResult>((resolve, reject) => {
        waiting.push({ ...pending, resolve, reject })
        pump()
      })
    },
    get idle(): boolean {
      return inFlight === 0 && waiting.length === 0
    },
  }
}
