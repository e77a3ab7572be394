// Idempotency keys: every write (POST, PUT, PATCH, DELETE) carries one, the caller's or a fresh UUID, so
// a retry (the SDK's own, after a dropped connection) is answered from the service's record, never run twice.

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export const isWriteMethod = (method: string): boolean => WRITE_METHODS.has(method.toUpperCase())

/**
 * A random (version 4) UUID from getRandomValues, which every browser has even outside a secure
 * context (randomUUID needs https or localhost), as Node 20 does.
 */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The request with an Idempotency-Key when it is a write without one; any other request as it is. */
export function withIdempotencyKey(request: Request, newKey: () => string = newIdempotencyKey): Request {
  if (!isWriteMethod(request.method) || request.headers.has(IDEMPOTENCY_HEADER)) return request
  const headers = new Headers(request.headers)
  headers.set(IDEMPOTENCY_HEADER, newKey())
  return new Request(request, { headers })
}
