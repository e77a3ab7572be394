// Event appends through the store's appendToStream: each writer owns one stream and appends one
// event at a time with the exact expected revision, waiting for each append before the next.
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { EventStore, NewEvent } from '../events/store/port.js'
import { type LatencySummary, LatencySamples } from './stats.js'

export const APPEND_BENCH_LIMITS = {
  maxAppends: 200_000,
  maxWriters: 1_000,
} as const

export type AppendBenchResult = {
  writers: number
  appends: number
  events: number
  seconds: number
  appendsPerSecond: number
  eventsPerSecond: number
  latency: LatencySummary
}

function benchEvent(writer: number, n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'BenchAmountRecorded',
    data: { writer, n, amount: { value: '10.00', currency: 'EUR' } },
    metadata: { organizationId: 'org_bench', actor: 'bench', requestId: `req_bench_${writer}_${n}` },
  }
}

async function writer(store: EventStore, index: number, appends: number, latencies: LatencySamples): Promise<void> {
  const stream = `bench-${randomUUID()}`
  for (let n = 0; n < appends; n++) {
    const started = performance.now()
    const result = await store.appendToStream(stream, [benchEvent(index, n)], { expectedRevision: n === 0 ? 'no_stream' : BigInt(n - 1) })
    latencies.add(performance.now() - started)
    if (result.nextExpectedRevision !== BigInt(n))
      throw new Error(`append ${n} to ${stream} landed at revision ${result.nextExpectedRevision}`)
  }
}

/** `totalAppends` split evenly over `writers` concurrent writers. */
export async function runAppendBench(store: EventStore, writers: number, totalAppends: number): Promise<AppendBenchResult> {
  if (writers < 1 || writers > APPEND_BENCH_LIMITS.maxWriters) throw new RangeError(`writers must be 1..${APPEND_BENCH_LIMITS.maxWriters}`)
  if (totalAppends < writers || totalAppends > APPEND_BENCH_LIMITS.maxAppends)
    throw new RangeError(`appends must be ${writers}..${APPEND_BENCH_LIMITS.maxAppends}`)
  const perWriter = Math.floor(totalAppends / writers)
  const appends = perWriter * writers
  const latencies = new LatencySamples(appends)
  const started = performance.now()
  await Promise.all(Array.from({ length: writers }, (_, i) => writer(store, i, perWriter, latencies)))
  const seconds = (performance.now() - started) / 1000
  return {
    writers,
    appends,
    events: appends,
    seconds,
    appendsPerSecond: appends / seconds,
    eventsPerSecond: appends / seconds,
    latency: latencies.summary(),
  }
}
