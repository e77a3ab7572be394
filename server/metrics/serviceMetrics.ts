// The Prometheus metrics of one service instance, on a registry of its own (never prom-client's
// global one: tests run several apps in one process). Counters and the request histogram grow as
// things happen; the gauges are set at each scrape (scrapeGauges.ts). No label ever holds an
// organization id or any other tenant value, so /metrics can be scraped without a key: its labels
// are routes, methods, status codes, event types from the catalog, consumer and group names.
import { Counter, Gauge, Histogram, Registry } from 'prom-client'

export const METRICS_LIMITS = {
  /** Request latency buckets, seconds. */
  latencyBucketsSeconds: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
} as const

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>

export function createServiceMetrics() {
  const registry = new Registry()
  const registers = [registry]
  const gauge = (name: string, help: string, labelNames: readonly string[] = []) => new Gauge({ name, help, labelNames, registers })
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (not the raw URL) and status code; _count is the request rate',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [...METRICS_LIMITS.latencyBucketsSeconds],
      registers,
    }),
    eventsAppended: new Counter({
      name: 'events_appended_total',
      help: 'Events this instance appended, by event type (a type outside the catalog counts as "other")',
      labelNames: ['event_type'],
      registers,
    }),
    webhookDeliveryOutcomes: new Counter({
      name: 'webhook_delivery_outcomes_total',
      help: 'Webhook delivery attempts this instance recorded: succeeded, failed (for good) or retrying',
      labelNames: ['outcome'],
      registers,
    }),
    consumerLagEvents: gauge('consumer_lag_events', 'Events the consumer handles past its checkpoint (a lower bound past the scan)', [
      'consumer',
      'group',
    ]),
    consumerLagSeconds: gauge('consumer_lag_seconds', 'Age of the oldest event the consumer has still to handle', ['consumer', 'group']),
    consumerStalled: gauge('consumer_stalled', '1 when the consumer is behind and its checkpoint has not moved for the bound', [
      'consumer',
      'group',
    ]),
    consumerLagLowerBound: gauge('consumer_lag_lower_bound', '1 when the lag scan stopped at its bound: the lag is at least the figures', [
      'consumer',
      'group',
    ]),
    headStaleness: gauge('event_store_head_staleness_seconds', 'Now minus the time of the newest readable event'),
    parkedEvents: gauge('consumer_parked_events', 'Dead letters (parked events) per consumer group', ['group']),
    webhookQueue: gauge('webhook_queue_deliveries', 'Webhook deliveries waiting: all pending, and those due now (capped count)', ['state']),
    schedulerBacklog: gauge('scheduler_due_commands', 'Timer commands due and not yet run (capped count)'),
    schedulerParked: gauge('scheduler_parked_commands', 'Timer commands parked after their last attempt (capped count)'),
    // Labelled, so that before any recorded run they are absent rather than a misleading 0.
    ledgerVerifyConsistent: gauge(
      'ledger_verify_last_consistent',
      '1 when the last recorded `ledger verify` found no discrepancy, else 0 (label: the discrepancy kind, or none)',
      ['discrepancy_kind'],
    ),
    ledgerVerifyFinished: gauge('ledger_verify_last_run_timestamp_seconds', 'When the last recorded `ledger verify` finished', ['result']),
    ledgerVerifyEvents: gauge('ledger_verify_last_events', 'Events the last recorded `ledger verify` folded', ['result']),
    scrapeErrors: gauge('metrics_scrape_errors', 'Sources that failed at the last scrape (their gauges kept their earlier values)'),
  }
}
