// A projection rebuilt over a log of 1 000 000 events (issue 29, point 4): the webhook endpoints
// projection, every event one it handles (100 000 endpoints, each created, then updated nine times
// over five rounds spread across the log, as an API's writes would leave them), through
// rebuildProjection in this process as `projections rebuild` runs it. Beside it, what the design
// allows: $all read alone (the adapter, no codec), and read, opened and parsed as a rebuild does
// before it applies anything; and where the time goes (CPU of this process and of PostgreSQL).
// The events are appended straight to the store behind the event codec (sealed as the API seals them),
// without inline projections: the live tables stay empty, which changes nothing a rebuild reads.
import { performance } from 'node:perf_hooks'
import { eventCodec } from '../events/protection/eventCodec.js'
import { protectedEventStore } from '../events/protection/protectedEventStore.js'
import { parseEventData } from '../events/catalog.js'
import type { EventStore, Position, RecordedEvent } from '../events/store/port.js'
import { rebuildProjection } from '../projections/runtime/rebuildProjection.js'
import { REPLAY_LIMITS } from '../projections/runtime/replay.js'
import { webhookEndpointsProjector } from '../projections/webhookEndpoints.js'
import { loadConfig } from '../server/config.js'
import { openRuntime } from '../server/runtime.js'
import { appendEndpointHistory } from '../test/harness/endpointHistory.js'
import { type CpuShares, measureCpu } from './cpu.js'

export type RebuildBenchPlan = { endpoints: number; eventsPerEndpoint: number; appendsPerEndpoint: number; seedConcurrency: number }

export const REBUILD_BENCH_PLAN: RebuildBenchPlan = {
  endpoints: 100_000,
  eventsPerEndpoint: 10,
  appendsPerEndpoint: 5,
  seedConcurrency: 64,
}

export const REBUILD_TARGETS = {
  /** Issue 29: `npm run bench` gains a row for rebuild events per second at 1 000 000 events. */
  eventsPerSecond: 30_000,
} as const

export type RebuildRun = { events: number; seconds: number; eventsPerSecond: number; cpu: CpuShares | undefined }

export type RebuildBenchResult = {
  projection: string
  events: number
  seedSeconds: number
  /** $all read by the adapter alone, in batches as a rebuild reads it. */
  read: RebuildRun
  /** $all read through the codec, handled events opened and parsed: a rebuild with nothing to apply. */
  decoded: RebuildRun
  rebuild: RebuildRun
}

type Options = {
  databaseUrl: string
  postmasterPid: number | undefined
  log: (message: string) => void
  plan?: RebuildBenchPlan
}

async function timed(postmasterPid: number | undefined, work: () => Promise<number>): Promise<RebuildRun> {
  const cpu = measureCpu(undefined, postmasterPid)
  const started = performance.now()
  const events = await work()
  const seconds = (performance.now() - started) / 1000
  return { events, seconds, eventsPerSecond: events / seconds, cpu: cpu?.() }
}

/** Reads $all from the start in rebuild-sized batches, doing `touch` to each event; answers the events read. */
async function scan(store: EventStore, touch: (events: RecordedEvent[]) => void): Promise<number> {
  let from: Position | undefined
  let events = 0
  for (let i = 0; i < REPLAY_LIMITS.maxBatches; i++) {
    const batch = await store.readAll({ from, maxCount: REPLAY_LIMITS.batchSize })
    if (batch.length === 0) break
    touch(batch)
    events += batch.length
    from = batch[batch.length - 1]!.position
  }
  return events
}

export async function runRebuildBench(options: Options): Promise<RebuildBenchResult> {
  const { log, postmasterPid } = options
  const plan = options.plan ?? REBUILD_BENCH_PLAN
  const config = loadConfig({ ...process.env, DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'silent' })
  const runtime = await openRuntime(config, { info: () => undefined, error: (_o, m) => log(`rebuild: ${m ?? 'error'}`) })
  try {
    const events = plan.endpoints * plan.eventsPerEndpoint
    log(
      `rebuild: appending ${events.toLocaleString('en-US')} webhook endpoint events (${plan.endpoints.toLocaleString('en-US')} endpoints)`,
    )
    const sealed = protectedEventStore(runtime.storedEvents, eventCodec(runtime.protection))
    const seedStarted = performance.now()
    let reported = 0
    await appendEndpointHistory(sealed, {
      organizationId: 'org_bench',
      endpoints: plan.endpoints,
      eventsPerEndpoint: plan.eventsPerEndpoint,
      appendsPerEndpoint: plan.appendsPerEndpoint,
      concurrency: plan.seedConcurrency,
      onAppended: (n) => {
        if (n - reported < events / 10) return
        reported = n
        log(`rebuild: ${n.toLocaleString('en-US')} appended`)
      },
    })
    const seedSeconds = (performance.now() - seedStarted) / 1000
    // The seed's dirty pages written out now rather than during the measurements.
    await runtime.pool.query('CHECKPOINT')
    const handles = webhookEndpointsProjector.handles
    log('rebuild: $all read alone')
    const read = await timed(postmasterPid, () => scan(runtime.storedEvents, () => undefined))
    log('rebuild: $all read, opened and parsed')
    const decoded = await timed(postmasterPid, () =>
      scan(runtime.store, (batch) => {
        for (const e of batch) if (handles.has(e.type)) parseEventData(e)
      }),
    )
    log('rebuild: rebuildProjection webhook_endpoints')
    const ctx = { protection: runtime.protection }
    const rebuild = await timed(
      postmasterPid,
      async () => (await rebuildProjection(runtime.store, runtime.db, webhookEndpointsProjector, ctx)).events,
    )
    return { projection: webhookEndpointsProjector.name, events, seedSeconds, read, decoded, rebuild }
  } finally {
    await runtime.close()
  }
}
