// The tools call the REST routes in-process (app.inject), with the MCP caller's own credential
// headers: authentication, the agent key's scope, idempotency, limits and tenancy are exactly those
// of the REST API, and no tool can do what the same key could not do over HTTP.
import type { FastifyInstance, FastifyRequest } from 'fastify'

export type RestRequest = {
  method: 'GET' | 'POST'
  /** Path and query under /v1, already encoded. */
  url: string
  payload?: object
  /** Sent as Idempotency-Key: the REST idempotency layer replays or refuses a reuse. */
  idempotencyKey?: string
}

export type RestAnswer = { statusCode: number; body: unknown; replayed: boolean }
export type RestCall = (call: RestRequest) => Promise<RestAnswer>

/** The credential headers the MCP request came with, and nothing else of it (the REST route gets its own body and query). */
const FORWARDED = ['authorization', 'x-api-key'] as const

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function restCaller(app: FastifyInstance, request: FastifyRequest): RestCall {
  const credentials: Record<string, string> = {}
  for (const name of FORWARDED) {
    const value = request.headers[name]
    if (typeof value === 'string') credentials[name] = value
  }
  return async ({ method, url, payload, idempotencyKey }) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...credentials,
        // The REST request carries the MCP request's id: the events it appends name the id the MCP client saw.
        'x-request-id': request.id,
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    })
    return {
      statusCode: response.statusCode,
      body: parsed(response.body),
      replayed: response.headers['idempotent-replayed'] === 'true',
    }
  }
}
