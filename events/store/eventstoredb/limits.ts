// The EventStoreDB adapter's named limits: subscription batch sizes, resubscribe backoff, chained append retries.
export const EVENTSTOREDB_LIMITS = {
  defaultBatchSize: 500,
  maxBatchSize: 1_000,
  minResubscribeMs: 100,
  maxResubscribeMs: 5_000,
  /** Reads of the stream's last event and appends after it, when other writers keep coming between the two. */
  maxChainedAppendAttempts: 5,
} as const
