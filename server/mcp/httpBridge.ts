// Between fastify and the SDK's web-standard handler (createMcpHandler's fetch face): the request as
// a fetch Request, and the SDK's Response written back through the reply, so the service's own
// hooks (request id, logging, rate limits) see it like any other answer.
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Not handed to the SDK: the credentials (the tools forward them to the REST routes themselves and
 * the SDK has no use for them) and the framing headers of a body fastify already read.
 */
const NOT_FORWARDED = new Set(['authorization', 'x-api-key', 'content-length', 'transfer-encoding', 'connection', 'host'])

export function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (NOT_FORWARDED.has(name) || value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  // The origin is fastify's concern (it answered this request); the SDK reads only the path.
  const url = new URL(request.url, 'http://localhost')
  const body = request.method === 'POST' && request.body !== undefined ? JSON.stringify(request.body) : undefined
  return new Request(url, { method: request.method, headers, ...(body === undefined ? {} : { body }) })
}

/**
 * The SDK's answer through the reply, read whole first: a stateless exchange ends with its one
 * response (no session stream stays open), and no tool streams progress, so buffering loses nothing
 * and lets the handler close before fastify sends.
 */
export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value)
  })
  return reply.send(await response.text())
}
