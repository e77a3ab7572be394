// The local receiver of `listen`: an HTTP server on 127.0.0.1 that the service delivers to. Each delivery
// is checked against the endpoint's signing secret, then POSTed on to the developer's URL with its
// Standard Webhooks headers and its body byte for byte; the target's status (or 502/504 when it cannot
// answer) goes back to the service, so the service's retry policy applies as for any receiver.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'
import { WEBHOOK_LIMITS } from '../../webhooks/limits.js'
import { type SignatureCheck, checkDeliverySignature } from './deliverySignature.js'

export const FORWARD_LIMITS = {
  /** A delivery's body: the largest message the service sends, plus room; 413 past it. */
  maxBodyBytes: WEBHOOK_LIMITS.maxMessageBytes + 16_384,
  /** One forward, connect to last byte; under the service's own 15 s so the service sees our 504, not its timeout. */
  forwardTimeoutMs: 10_000,
  /** Response bytes passed back to the service: what it keeps of an attempt. */
  responseBodyMaxBytes: WEBHOOK_LIMITS.responseBodyMaxBytes,
  /** Deliveries forwarded at once; the service sends at most 8 to one endpoint, so 503 past this means a stranger. */
  maxInFlight: 16,
  /** Fewest milliseconds between two reads of the secret after a signature that does not match it. */
  secretRefreshIntervalMs: 5_000,
} as const

/** Headers carried to the target as they came: the signature covers webhook-id, webhook-timestamp and the body. */
const FORWARDED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent'] as const

const envelopeType = z.looseObject({ type: z.string().max(100) })

/** One delivery as `listen` prints it. `targetStatus` 0: the target gave no answer (`error` says why). */
export type ForwardReport = {
  at: Date
  type: string | undefined
  messageId: string | undefined
  targetStatus: number
  answeredStatus: number
  durationMs: number
  error: string | undefined
}

export type ForwarderOptions = {
  forwardTo: string
  /** The signing secret now, undefined until listen is ready; `refreshSecret` reads it again from the API (a rotation). */
  secret: () => string | undefined
  refreshSecret: () => Promise<string>
  onDelivery: (report: ForwardReport) => void
}

export type Forwarder = { url: string; close(): Promise<void> }

export async function startForwarder(options: ForwarderOptions): Promise<Forwarder> {
  let inFlight = 0
  let lastRefreshAt = 0

  async function verify(secret: string, headers: http.IncomingHttpHeaders, body: Buffer): Promise<SignatureCheck> {
    const signed = {
      id: single(headers['webhook-id']),
      timestamp: single(headers['webhook-timestamp']),
      signature: single(headers['webhook-signature']),
    }
    const first = checkDeliverySignature(secret, signed, body, new Date())
    if (first.ok || Date.now() - lastRefreshAt < FORWARD_LIMITS.secretRefreshIntervalMs) return first
    lastRefreshAt = Date.now()
    return checkDeliverySignature(await options.refreshSecret(), signed, body, new Date())
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const started = Date.now()
    const answer = (status: number, text: string) => response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text)
    if (request.method !== 'POST') return void answer(405, 'listen accepts POST deliveries only')
    const body = await readBody(request)
    if (body === undefined) return void answer(413, `a delivery is at most ${FORWARD_LIMITS.maxBodyBytes} bytes`)
    const secret = options.secret()
    if (secret === undefined) return void answer(503, 'listen is starting; send again')
    const check = await verify(secret, request.headers, body)
    const messageId = single(request.headers['webhook-id'])
    const type = typeOf(body)
    const report = (targetStatus: number, answeredStatus: number, error: string | undefined) =>
      options.onDelivery({ at: new Date(started), type, messageId, targetStatus, answeredStatus, durationMs: Date.now() - started, error })
    if (!check.ok) {
      report(0, 401, `refused: ${check.reason}`)
      return void answer(401, `listen refused the delivery: ${check.reason}`)
    }
    const forwarded = await forward(options.forwardTo, request.headers, body)
    // 410 would make the service disable this endpoint for good; a developer's server answering it is a bug to see, not a signal.
    const answeredStatus = forwarded.status === 0 ? (forwarded.timedOut ? 504 : 502) : forwarded.status === 410 ? 502 : forwarded.status
    report(forwarded.status, answeredStatus, forwarded.error)
    const text = forwarded.status === 0 ? `listen could not reach ${options.forwardTo}: ${forwarded.error ?? ''}` : forwarded.body
    answer(answeredStatus, text)
  }

  const server = http.createServer((request, response) => {
    if (inFlight >= FORWARD_LIMITS.maxInFlight) {
      response.writeHead(503, { 'retry-after': '1' }).end('listen is busy')
      return
    }
    inFlight += 1
    response.once('close', () => (inFlight -= 1))
    handle(request, response).catch((error: unknown) => {
      options.onDelivery({
        at: new Date(),
        type: undefined,
        messageId: single(request.headers['webhook-id']),
        targetStatus: 0,
        answeredStatus: 500,
        durationMs: 0,
        error: error instanceof Error ? error.message : String(error),
      })
      if (!response.headersSent) response.writeHead(500).end('listen failed')
    })
  })
  server.requestTimeout = FORWARD_LIMITS.forwardTimeoutMs * 2
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

function typeOf(body: Buffer): string | undefined {
  try {
    const parsed = envelopeType.safeParse(JSON.parse(body.toString('utf8')))
    return parsed.success ? parsed.data.type : undefined
  } catch {
    return undefined
  }
}

/** The request body, or undefined once it passes the limit (the rest is not read). */
function readBody(request: http.IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > FORWARD_LIMITS.maxBodyBytes) {
        request.removeAllListeners('data')
        request.resume()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

type Forwarded = { status: number; body: string; error: string | undefined; timedOut: boolean }

async function forward(target: string, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Forwarded> {
  const outgoing: Record<string, string> = {}
  for (const name of FORWARDED_HEADERS) {
    const value = single(headers[name])
    if (value !== undefined) outgoing[name] = value
  }
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: outgoing,
      // The received bytes exactly (copied into a plain ArrayBuffer, which fetch's types ask for): the signature covers them.
      body: new Uint8Array(body),
      // A redirect is the target's answer, as the service itself never follows one.
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_LIMITS.forwardTimeoutMs),
    })
    return { status: response.status, body: await boundedText(response), error: undefined, timedOut: false }
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined
    const message = timedOut ? `no answer within ${FORWARD_LIMITS.forwardTimeoutMs} ms` : (cause ?? String(error))
    return { status: 0, body: '', error: message, timedOut }
  }
}

/** At most responseBodyMaxBytes of the target's answer; the rest is not read. */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < FORWARD_LIMITS.responseBodyMaxBytes) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).subarray(0, FORWARD_LIMITS.responseBodyMaxBytes).toString('utf8')
}
