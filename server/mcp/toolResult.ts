// REST answers as MCP tool results: a 2xx is the resource (as JSON text and as structuredContent);
// a refusal is a tool error (isError true) carrying the service's error body: code, message,
// details, and for a limit denial the spec's `denial` and `hint`. So the model reads the same
// codes a REST client would, and can act on the hint.
import type { CallToolResult } from '@modelcontextprotocol/server'
import type { RestAnswer } from './restCall.js'

export type JsonObject = Record<string, unknown>

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A result the model reads: the object as JSON text, and the same object structured. */
export function objectResult(value: JsonObject, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value, ...(isError ? { isError } : {}) }
}

/** The error body's fields a tool error keeps (the requestId too: what to quote to support). */
const ERROR_FIELDS = ['code', 'message', 'statusCode', 'details', 'denial', 'hint', 'requestId'] as const

export function errorOf(answer: RestAnswer): JsonObject {
  const body = isJsonObject(answer.body) ? answer.body : { message: String(answer.body) }
  const kept: JsonObject = { statusCode: answer.statusCode }
  for (const field of ERROR_FIELDS) if (body[field] !== undefined) kept[field] = body[field]
  return { error: kept }
}

export function toolResult(answer: RestAnswer): CallToolResult {
  if (answer.statusCode >= 200 && answer.statusCode < 300 && isJsonObject(answer.body))
    // A replay is the first answer itself; that it is one stays beside it, out of the resource.
    return { ...objectResult(answer.body), ...(answer.replayed ? { _meta: { idempotentReplayed: true } } : {}) }
  return objectResult(errorOf(answer), true)
}
