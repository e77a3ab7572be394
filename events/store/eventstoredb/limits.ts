// The EventStoreDB adapter's named limits: subscription batch sizes, resubscribe backoff, chained append retries, the head scan.
export const EVENTSTOREDB_LIMITS = {
  defaultBatchSize: 500,
  maxBatchSize: 1_000,
  minResubscribeMs: 100,
  maxResubscribeMs: 5_000,
  /** Reads of the stream's last event and appends after it, when other writers keep coming between the two. */
  maxChainedAppendAttempts: 5,
  /** Events read backwards from the end for the head: system events can follow the last port event. */
  maxHeadScan: 1_000,
} as const
