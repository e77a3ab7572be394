// Sets the gauges of /metrics at each scrape, from bounded reads: consumer lag (one bounded scan,
// lagProbe.ts), dead letters per group, capped queue counts, and the last recorded `ledger verify`.
// A source that fails leaves its gauges as they were and counts in metrics_scrape_errors: a scrape
// still answers, with what it could read.
import type { Kysely } from 'kysely'
import { summarizeParked } from '../../events/consumers/parkedSummary.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { latestLedgerVerification } from '../observability/ledgerVerifications.js'
import type { LagProbe } from '../observability/lagProbe.js'
import { readQueueDepths } from './queueDepths.js'
import type { ServiceMetrics } from './serviceMetrics.js'

export type ScrapeSources = { lag: LagProbe; db: Kysely<ReadDatabase>; groups: readonly string[] }

export async function refreshGauges(metrics: ServiceMetrics, sources: ScrapeSources): Promise<void> {
  const [lag, parked, queues, ledger] = await Promise.allSettled([
    sources.lag.measure(),
    summarizeParked(sources.db, 1),
    readQueueDepths(sources.db),
    latestLedgerVerification(sources.db),
  ])
  if (lag.status === 'fulfilled') {
    const { consumers, headStalenessSeconds } = lag.value
    for (const g of [metrics.consumerLagEvents, metrics.consumerLagSeconds, metrics.consumerStalled, metrics.consumerLagLowerBound])
      g.reset()
    for (const c of consumers) {
      const labels = { consumer: c.name, group: c.group }
      metrics.consumerLagEvents.set(labels, c.lagEvents)
      metrics.consumerLagSeconds.set(labels, c.lagSeconds)
      metrics.consumerStalled.set(labels, c.stalled ? 1 : 0)
      metrics.consumerLagLowerBound.set(labels, c.lagIsLowerBound ? 1 : 0)
    }
    metrics.headStaleness.set(headStalenessSeconds ?? 0)
  }
  if (parked.status === 'fulfilled') {
    for (const group of sources.groups) metrics.parkedEvents.set({ group }, parked.value.find((p) => p.group === group)?.letters ?? 0)
  }
  if (queues.status === 'fulfilled') {
    metrics.webhookQueue.set({ state: 'pending' }, queues.value.webhookPending)
    metrics.webhookQueue.set({ state: 'due' }, queues.value.webhookDue)
    metrics.schedulerBacklog.set(queues.value.schedulerDue)
    metrics.schedulerParked.set(queues.value.schedulerParked)
  }
  if (ledger.status === 'fulfilled' && ledger.value) {
    const run = ledger.value
    const result = run.consistent ? 'consistent' : 'discrepancy'
    for (const g of [metrics.ledgerVerifyConsistent, metrics.ledgerVerifyFinished, metrics.ledgerVerifyEvents]) g.reset()
    metrics.ledgerVerifyConsistent.set({ discrepancy_kind: run.discrepancyKind ?? 'none' }, run.consistent ? 1 : 0)
    metrics.ledgerVerifyFinished.set({ result }, run.finishedAt.getTime() / 1000)
    metrics.ledgerVerifyEvents.set({ result }, run.events)
  }
  metrics.scrapeErrors.set([lag, parked, queues, ledger].filter((r) => r.status === 'rejected').length)
}
