// Webhook delivery: deliveries per second to a local receiver, and the time from an event's
// append to the receiver's 200, with 1 and 10 endpoints. The service (API, projections, webhook
// subscriber and dispatcher, default tuning) runs in a child process; this process appends the
// events straight to the event store and runs the receiver, so both ends are timed on one clock.
// Run directly, this file is that child.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import type { PublicEventMappers } from '../domain/publicEvents.js'
import type { EventStore } from '../events/store/port.js'
import { getPostgresEventStore } from '../events/store/postgres/index.js'
import { type LatencySummary, LatencySamples } from './stats.js'
import type { ServerChild } from './child.js'
import { type CpuShares, measureCpu } from './cpu.js'

export const WEBHOOK_BENCH_PLAN = {
  endpointCounts: [1, 10],
  /** Events appended one at a time, each waiting for all its deliveries: the pipeline's own latency. */
  sequentialEvents: { 1: 200, 10: 100 } as Record<number, number>,
  /** Events appended by concurrent writers as fast as they go: throughput, and latency under load. */
  burstEvents: { 1: 3_000, 10: 600 } as Record<number, number>,
  burstWriters: 20,
  warmUpEvents: 50,
  phaseTimeoutMs: 90_000,
  maxLatencySamples: 100_000,
} as const

const PROBE_TYPE = 'BenchWebhookProbe'

/** The child's extra mapper: no domain emits fan-out events yet, so the benchmark brings its own. */
const benchMapper: PublicEventMappers = {
  [PROBE_TYPE]: (event) => ({ type: 'transfer.completed', data: { ...event.data }, tags: [String(event.data.run)] }),
}

export type WebhookBenchResult = {
  endpoints: number
  mode: 'sequential' | 'burst'
  events: number
  deliveries: number
  seconds: number
  deliveriesPerSecond: number
  eventsPerSecond: number
  latency: LatencySummary
  /** CPU of the service process and PostgreSQL during the measurement. */
  cpu: CpuShares | undefined
}

const nowMs = () => performance.timeOrigin + performance.now()

// ---- receiver ---------------------------------------------------------------------------------

type Receiver = { port: number; expect(run: string, deliveries: number, latencies: LatencySamples): Promise<void>; close(): Promise<void> }

async function startReceiver(): Promise<Receiver> {
  let current: { run: string; left: number; latencies: LatencySamples; done: () => void } | undefined
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { run: string; appendedAtMs: number } }
      res.on('finish', () => {
        if (!current || envelope.data.run !== current.run) return
        current.latencies.add(nowMs() - envelope.data.appendedAtMs)
        if (--current.left === 0) current.done()
      })
      res.writeHead(200).end()
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    expect(run, deliveries, latencies) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `run ${run}: ${current?.left ?? '?'} of ${deliveries} deliveries missing after ${WEBHOOK_BENCH_PLAN.phaseTimeoutMs} ms`,
              ),
            ),
          WEBHOOK_BENCH_PLAN.phaseTimeoutMs,
        )
        current = {
          run,
          left: deliveries,
          latencies,
          done: () => {
            clearTimeout(timer)
            resolve()
          },
        }
      })
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

// ---- load -------------------------------------------------------------------------------------

function appendProbe(store: EventStore, organizationId: string, run: string): Promise<unknown> {
  const id = randomUUID()
  return store.appendToStream(
    `bench_webhook-${id}`,
    [
      {
        id,
        type: PROBE_TYPE,
        data: { run, appendedAtMs: nowMs() },
        metadata: { organizationId, actor: 'bench' },
      },
    ],
    { expectedRevision: 'no_stream' },
  )
}

async function measure(
  store: EventStore,
  receiver: Receiver,
  organizationId: string,
  endpoints: number,
  mode: 'sequential' | 'burst',
  events: number,
): Promise<WebhookBenchResult> {
  const run = `${mode}-${endpoints}-${randomUUID()}`
  const latencies = new LatencySamples(WEBHOOK_BENCH_PLAN.maxLatencySamples)
  const started = nowMs()
  if (mode === 'sequential') {
    for (let i = 0; i < events; i++) {
      const arrived = receiver.expect(run, endpoints, latencies)
      await appendProbe(store, organizationId, run)
      await arrived
    }
  } else {
    const arrived = receiver.expect(run, events * endpoints, latencies)
    const perWriter = Math.ceil(events / WEBHOOK_BENCH_PLAN.burstWriters)
    await Promise.all(
      Array.from({ length: WEBHOOK_BENCH_PLAN.burstWriters }, async (_, w) => {
        for (let i = w * perWriter; i < Math.min(events, (w + 1) * perWriter); i++) await appendProbe(store, organizationId, run)
      }),
    )
    await arrived
  }
  const seconds = (nowMs() - started) / 1_000
  return {
    endpoints,
    mode,
    events,
    deliveries: events * endpoints,
    seconds,
    deliveriesPerSecond: (events * endpoints) / seconds,
    eventsPerSecond: events / seconds,
    latency: latencies.summary(),
    cpu: undefined,
  }
}

// ---- orchestration ----------------------------------------------------------------------------

export type WebhookBenchDeps = {
  createDatabase: (purpose: string) => Promise<string>
  startChild: (script: string, env: Record<string, string>) => Promise<ServerChild>
  stopChild: (child: ServerChild) => Promise<void>
  postmasterPid: number | undefined
  log: (message: string) => void
}

async function withCpu(
  service: ServerChild,
  postmasterPid: number | undefined,
  work: () => Promise<WebhookBenchResult>,
): Promise<WebhookBenchResult> {
  const cpu = measureCpu(service.pid, postmasterPid)
  const result = await work()
  return { ...result, cpu: cpu?.() }
}

export async function runWebhookBench(deps: WebhookBenchDeps): Promise<WebhookBenchResult[]> {
  const databaseUrl = await deps.createDatabase('webhooks')
  const service = await deps.startChild('./webhookBench.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' })
  const store = await getPostgresEventStore({
    connectionString: databaseUrl,
    poolSize: WEBHOOK_BENCH_PLAN.burstWriters,
    onError: (e) => deps.log(`webhook bench store: ${String(e)}`),
  })
  const receiver = await startReceiver()
  try {
    const auth = { authorization: `Bearer ${String(service.ready.apiKey)}`, 'content-type': 'application/json' }
    const organizationId = String(service.ready.organizationId)
    const results: WebhookBenchResult[] = []
    let created = 0
    for (const endpoints of WEBHOOK_BENCH_PLAN.endpointCounts) {
      for (; created < endpoints; created++) {
        const response = await fetch(`${service.baseUrl}/v1/webhooks/endpoints`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/ep/${created}` }),
        })
        if (response.status !== 201) throw new Error(`creating a webhook endpoint answered ${response.status}: ${await response.text()}`)
      }
      deps.log(
        `webhooks, ${endpoints} endpoint(s): warm-up, then ${WEBHOOK_BENCH_PLAN.sequentialEvents[endpoints]} sequential and ` +
          `${WEBHOOK_BENCH_PLAN.burstEvents[endpoints]} burst events`,
      )
      await measure(store, receiver, organizationId, endpoints, 'burst', WEBHOOK_BENCH_PLAN.warmUpEvents)
      results.push(
        await withCpu(service, deps.postmasterPid, () =>
          measure(store, receiver, organizationId, endpoints, 'sequential', WEBHOOK_BENCH_PLAN.sequentialEvents[endpoints]!),
        ),
      )
      results.push(
        await withCpu(service, deps.postmasterPid, () =>
          measure(store, receiver, organizationId, endpoints, 'burst', WEBHOOK_BENCH_PLAN.burstEvents[endpoints]!),
        ),
      )
    }
    return results
  } finally {
    await receiver.close()
    await store.close()
    await deps.stopChild(service)
  }
}

// ---- child: the service with webhook delivery on ----------------------------------------------

async function serveWithWebhooks(): Promise<void> {
  // Imported here: the parent bench process never loads the service.
  const { serveBenchService } = await import('./benchService.js')
  await serveBenchService({
    name: 'webhookBench',
    organizationName: 'Webhook bench',
    beforeListen: (runtime) => runtime.webhooks.start({ extraMappers: [benchMapper] }),
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serveWithWebhooks()
