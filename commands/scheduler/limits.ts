// Every bound of the scheduler, named in one place.
export const SCHEDULER_LIMITS = {
  /** Rows one worker claims (and holds locked) per transaction: small, so other workers share the load. */
  batchSize: 10,
  /** A pass claims batches until none is full, at most this many (the next pass continues). */
  maxBatchesPerPass: 100,
  /** How often a worker looks for due rows when the last pass found none. */
  pollIntervalMs: 1_000,
  /** Failed attempts before a row is parked for an operator. */
  maxAttempts: 8,
  /** The first retry waits this long; each next one twice as long as the last... */
  backoffBaseMs: 1_000,
  /** ...up to this. */
  backoffMaxMs: 15 * 60 * 1_000,
  /** Longest id (deterministic, so derived from ids it is built of). */
  maxIdLength: 200,
  /** Largest stored command, in bytes of JSON. */
  maxCommandBytes: 16_384,
} as const

export type SchedulerLimits = { readonly [K in keyof typeof SCHEDULER_LIMITS]: number }
