// One autocannon run against a listening server, in the calling thread: requests/s, p50/p99 from
// every response's own latency (autocannon's histogram rounds to whole milliseconds), non-2xx and
// socket errors. httpBench.ts runs it in a worker thread of its own.
import autocannon from 'autocannon'
import { type LatencySummary, LatencySamples } from './stats.js'

export const HTTP_BENCH_LIMITS = {
  maxDurationSeconds: 30,
  maxConnections: 500,
  requestTimeoutSeconds: 10,
  maxLatencySamples: 2_000_000,
} as const

export type HttpTarget = {
  url: string
  /** Paths taken in turn, one per request (many streams instead of one); `url` gives the origin. */
  paths?: readonly string[]
  method: 'GET' | 'POST' | 'PUT'
  headers?: Record<string, string>
  body?: string
}

export type HttpBenchResult = {
  connections: number
  seconds: number
  requests: number
  requestsPerSecond: number
  latency: LatencySummary
  non2xx: number
  errors: number
  statusCodes: Record<string, number>
}

export function runAutocannon(target: HttpTarget, options: { connections: number; durationSeconds: number }): Promise<HttpBenchResult> {
  if (options.durationSeconds <= 0 || options.durationSeconds > HTTP_BENCH_LIMITS.maxDurationSeconds)
    throw new RangeError('duration out of bounds')
  if (options.connections < 1 || options.connections > HTTP_BENCH_LIMITS.maxConnections) throw new RangeError('connections out of bounds')
  const latencies = new LatencySamples(HTTP_BENCH_LIMITS.maxLatencySamples)
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: { ...(target.body ? { 'content-type': 'application/json' } : {}), ...target.headers },
        ...(target.body ? { body: target.body } : {}),
        connections: options.connections,
        duration: options.durationSeconds,
        ...(target.paths && target.paths.length > 0 ? { requests: [{ setupRequest: rotatingPath(target.paths) }] } : {}),
        timeout: HTTP_BENCH_LIMITS.requestTimeoutSeconds,
      },
      (error, result) => {
        if (error) return reject(error)
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]))
        const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0)
        resolve({
          connections: options.connections,
          seconds: result.duration,
          requests,
          requestsPerSecond: requests / result.duration,
          latency: latencies.summary(),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          statusCodes,
        })
      },
    )
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) latencies.add(ms)
    })
  })
}

/** An autocannon setupRequest that gives each request the next path of the list. */
function rotatingPath(paths: readonly string[]) {
  let next = 0
  return (request: { path?: string }) => {
    const path = paths[next % paths.length]!
    next += 1
    return { ...request, path }
  }
}
