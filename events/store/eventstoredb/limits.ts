// The EventStoreDB adapter's named limits: subscription batch sizes and resubscribe backoff.
export const EVENTSTOREDB_LIMITS = {
  defaultBatchSize: 500,
  maxBatchSize: 1_000,
  minResubscribeMs: 100,
  maxResubscribeMs: 5_000,
  /** Events read backwards from the end for the head: system events can follow the last port event. */
  maxHeadScan: 1_000,
} as const
