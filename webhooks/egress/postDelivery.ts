// One HTTP POST of a delivery: to the address resolveTarget checked (a pinned lookup, so no second
// DNS answer can redirect it), no redirects followed, one deadline for the whole exchange, and
// at most responseBodyMaxBytes of the response read. Never throws: failures come back as status 0
// with the error text.
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { Target } from './resolveTarget.js'

export type PostOutcome = {
  /** HTTP status, or 0 when no response arrived (network error, timeout, refused). */
  status: number
  body: string
  error: string | null
  durationMs: number
  /** True when the caller's signal aborted the attempt (the dispatcher is stopping). */
  aborted: boolean
}

export type PostOptions = { timeoutMs: number; maxBodyBytes: number; signal?: AbortSignal }

function pinnedLookup(target: Target): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }])
    else callback(null, target.address, target.family)
  }
}

/** Postgres text cannot hold NUL; a binary response body must still be storable. */
const storable = (buffer: Buffer) => buffer.toString('utf8').replaceAll('\u0000', '\uFFFD')

export function postDelivery(target: Target, headers: Record<string, string>, body: string, options: PostOptions): Promise<PostOutcome> {
  const started = performance.now()
  const { url } = target
  return new Promise((resolve) => {
    let settled = false
    let status = 0
    const chunks: Buffer[] = []
    let received = 0
    const finish = (error: string | null, aborted = false) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      request.destroy()
      resolve({
        status,
        body: storable(Buffer.concat(chunks).subarray(0, options.maxBodyBytes)),
        error,
        durationMs: Math.round(performance.now() - started),
        aborted,
      })
    }
    const transport = url.protocol === 'https:' ? https : http
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        // A fresh connection per attempt: it goes to the address checked for this attempt.
        agent: false,
      },
      (response) => {
        status = response.statusCode ?? 0
        response.on('data', (chunk: Buffer) => {
          const room = options.maxBodyBytes - received
          if (room > 0) chunks.push(chunk.subarray(0, room))
          received += chunk.length
          if (received >= options.maxBodyBytes) finish(null)
        })
        response.on('end', () => finish(null))
        response.on('error', (error) => finish(status ? null : describe(error)))
      },
    )
    const timer = setTimeout(
      () =>
        finish(
          status
            ? `timed out reading the response body after ${options.timeoutMs} ms`
            : `timed out after ${options.timeoutMs} ms without a response`,
        ),
      options.timeoutMs,
    )
    const onAbort = () => finish('interrupted: the dispatcher is stopping', true)
    if (options.signal?.aborted) return onAbort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    request.on('error', (error) => finish(describe(error)))
    request.end(body)
  })
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message
}
