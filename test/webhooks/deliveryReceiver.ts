// A real HTTP receiver for webhook tests: a node:http server on 127.0.0.1 that records every
// request (headers, raw body), answers as the test says per path, and tracks how many requests
// per path are in flight at once.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export type ReceivedRequest = {
  path: string
  headers: Record<string, string>
  body: string
  receivedAt: number
}

export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; hang?: boolean }
export type Responder = (request: ReceivedRequest, nth: number) => Answer

export type Receiver = {
  port: number
  url: (path: string) => string
  requests: ReceivedRequest[]
  on(path: string, responder: Responder): void
  /** Connections opened so far (to prove a refused delivery never connected). */
  connections(): number
  maxConcurrent(path: string): number
  waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number, what?: string): Promise<void>
  forPath(path: string): ReceivedRequest[]
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = []
  const responders = new Map<string, Responder>()
  const inFlight = new Map<string, number>()
  const peak = new Map<string, number>()
  let connections = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      const received: ReceivedRequest = { path, headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() }
      const nth = requests.filter((r) => r.path === path).length
      requests.push(received)
      const now = (inFlight.get(path) ?? 0) + 1
      inFlight.set(path, now)
      peak.set(path, Math.max(peak.get(path) ?? 0, now))
      const fallback: Responder = () => ({ status: 200, body: 'ok' })
      const answer = (responders.get(path) ?? fallback)(received, nth)
      const done = () => inFlight.set(path, (inFlight.get(path) ?? 1) - 1)
      res.on('close', done)
      if (answer.hang) return
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' })
        res.end(answer.body ?? '')
      }, answer.delayMs ?? 0)
    })
  })
  server.on('connection', () => {
    connections += 1
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    on: (path, responder) => responders.set(path, responder),
    connections: () => connections,
    maxConcurrent: (path) => peak.get(path) ?? 0,
    forPath: (path) => requests.filter((r) => r.path === path),
    async waitFor(predicate, timeoutMs = 10_000, what = 'receiver condition') {
      const until = Date.now() + timeoutMs
      while (!predicate(requests)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}; got ${requests.length} requests`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Verifies a delivery as a receiver would, with the standardwebhooks package; returns the payload. */
export function verifyDelivery(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id'] ?? '',
    'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
    'webhook-signature': request.headers['webhook-signature'] ?? '',
  })
}

/** Polls until `check` returns a value (not undefined), bounded. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
