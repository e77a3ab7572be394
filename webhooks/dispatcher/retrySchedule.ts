// The retry schedule: entry i is the wait before attempt i + 1 of a run, so the default
// [0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h] sends at once, then retries seven times. A run
// starts when a message is stored, or again on a resend or recover.
import { WEBHOOK_LIMITS } from '../limits.js'

export const RETRY_SCHEDULE_LIMITS = {
  maxAttemptsPerRun: 50,
  maxDelayMs: 7 * 24 * 60 * 60 * 1_000,
} as const

export type RetrySchedule = readonly number[]

export function assertRetrySchedule(schedule: RetrySchedule): void {
  if (schedule.length < 1 || schedule.length > RETRY_SCHEDULE_LIMITS.maxAttemptsPerRun) {
    throw new RangeError(`A retry schedule has 1 to ${RETRY_SCHEDULE_LIMITS.maxAttemptsPerRun} entries`)
  }
  for (const ms of schedule) {
    if (!Number.isInteger(ms) || ms < 0 || ms > RETRY_SCHEDULE_LIMITS.maxDelayMs)
      throw new RangeError(`Retry delays are 0 to ${RETRY_SCHEDULE_LIMITS.maxDelayMs} ms`)
  }
}

/** A delay with jitter, so receivers that failed together are not retried together. */
export function withJitter(ms: number, random: () => number = Math.random): number {
  const factor = 1 + (random() * 2 - 1) * WEBHOOK_LIMITS.retryJitterRatio
  return Math.max(0, Math.round(ms * factor))
}

/**
 * The wait before the next attempt after `attemptsMade` attempts of the run, or undefined when
 * the schedule is used up and the delivery fails for good.
 */
export function nextDelayMs(schedule: RetrySchedule, attemptsMade: number, random: () => number = Math.random): number | undefined {
  const base = schedule[attemptsMade]
  return base === undefined ? undefined : withJitter(base, random)
}
