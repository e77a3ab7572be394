// What makes two requests "the same" for an Idempotency-Key: method, path with query, and body.
import { createHash } from 'node:crypto'

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${url}\n`)
    .update(body === undefined ? '' : JSON.stringify(body))
    .digest('hex')
}
