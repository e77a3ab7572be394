// Runs the retention purge on an interval (hourly by default), in whichever process starts it;
// two processes purging at once only delete the same rows once.
import type { Kysely } from 'kysely'
import type { ReadDatabase } from '../../projections/schema.js'
import { WEBHOOK_LIMITS } from '../limits.js'
import { purgeExpiredMessages } from './purgeExpiredMessages.js'

export type RetentionJob = { stop(): Promise<void>; runOnce(): Promise<number> }

export function startRetentionJob(db: Kysely<ReadDatabase>, options: { intervalMs?: number; onError: (error: unknown, message: string) => void }): RetentionJob {
  let running: Promise<number> | undefined
  const runOnce = () => {
    running ??= purgeExpiredMessages(db).finally(() => {
      running = undefined
    })
    return running
  }
  const timer = setInterval(() => {
    runOnce().catch((error: unknown) => options.onError(error, 'webhook retention purge failed'))
  }, options.intervalMs ?? WEBHOOK_LIMITS.retentionIntervalMs)
  timer.unref()
  return {
    runOnce,
    async stop() {
      clearInterval(timer)
      await running?.catch(() => undefined)
    },
  }
}
