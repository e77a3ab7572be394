// Every bound of webhook delivery, named in one place (TigerBeetle style: a limit on everything).
export const WEBHOOK_LIMITS = {
  /** One attempt, from connect to the last byte read (issue 3). */
  requestTimeoutMs: 15_000,
  /** Response bytes kept per attempt (issue 3); the rest is not read. */
  responseBodyMaxBytes: 20_000,
  /** Error text kept per attempt. */
  errorTextMaxLength: 1_000,
  /** Messages and attempts are purged after this (spec: 90 days). */
  retentionMs: 90 * 24 * 60 * 60 * 1_000,
  retentionIntervalMs: 60 * 60 * 1_000,
  retentionBatchSize: 1_000,
  /** A purge run stops after this many batches; the next run continues. */
  retentionMaxBatches: 1_000,
  /** Largest envelope a message may carry; a bigger one is a mapper bug and stops the subscriber. */
  maxMessageBytes: 1_048_576,
  /** Tags (resource ids) per message. */
  maxTagsPerMessage: 20,
  tagMaxLength: 128,
  /** Events per subscriber batch (one transaction). */
  subscriberBatchSize: 500,
  /** Endpoints one message fans out to. */
  maxEndpointsPerFanOut: 1_000,
  /** Deliveries in flight in one dispatcher process. */
  maxInFlight: 64,
  /** Deliveries in flight to one endpoint, across all dispatcher processes. */
  perEndpointConcurrency: 8,
  /** Deliveries looked at per claim; more than maxInFlight so busy endpoints do not starve others. */
  claimScanSize: 256,
  /** A claim outlives the attempt's timeout by this much, so a live attempt is never taken over. */
  leaseMarginMs: 15_000,
  /** Idle poll for due retries and work from other processes. */
  pollIntervalMs: 250,
  /** Retries of recording an attempt's outcome while the database is unreachable. */
  recordMaxTries: 5,
  /** Jitter: each retry delay is multiplied by a random factor in [1 - j, 1 + j]. */
  retryJitterRatio: 0.2,
  /** Attempts shown with one message, newest last. */
  maxAttemptsShown: 1_000,
  /** Deliveries re-queued per recover batch (one short transaction each). */
  recoverBatchSize: 500,
  recoverMaxBatches: 10_000,
  /** On stop, in-flight attempts get this long to finish before they are aborted. */
  stopGraceMs: 5_000,
  /** Longest a test-event request waits for its message to exist. */
  messageWaitMs: 5_000,
  maxSubscriberWaiters: 10_000,
  /** Event types in one list filter. */
  maxEventTypesFilter: 50,
} as const

/** Dispatcher tuning; tests shorten the timeouts, production uses the defaults above. */
export type DispatcherTuning = {
  requestTimeoutMs: number
  leaseMs: number
  pollIntervalMs: number
  maxInFlight: number
  perEndpointConcurrency: number
  stopGraceMs: number
}

export function dispatcherTuning(overrides: Partial<DispatcherTuning> = {}): DispatcherTuning {
  const requestTimeoutMs = overrides.requestTimeoutMs ?? WEBHOOK_LIMITS.requestTimeoutMs
  const tuning: DispatcherTuning = {
    requestTimeoutMs,
    leaseMs: overrides.leaseMs ?? requestTimeoutMs + WEBHOOK_LIMITS.leaseMarginMs,
    pollIntervalMs: overrides.pollIntervalMs ?? WEBHOOK_LIMITS.pollIntervalMs,
    maxInFlight: overrides.maxInFlight ?? WEBHOOK_LIMITS.maxInFlight,
    perEndpointConcurrency: overrides.perEndpointConcurrency ?? WEBHOOK_LIMITS.perEndpointConcurrency,
    stopGraceMs: overrides.stopGraceMs ?? WEBHOOK_LIMITS.stopGraceMs,
  }
  // A lease shorter than an attempt would let a second dispatcher send the same attempt.
  if (tuning.leaseMs <= tuning.requestTimeoutMs) throw new RangeError('leaseMs must exceed requestTimeoutMs')
  if (tuning.maxInFlight < 1 || tuning.perEndpointConcurrency < 1) throw new RangeError('concurrency limits must be at least 1')
  return tuning
}
