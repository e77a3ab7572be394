// What makes two requests "the same" for an Idempotency-Key: method, the matched route, its path
// parameters and query as the router decoded and validation read them, and the body. Not the raw
// URL: `/v1/x` and `/%761/x` are one operation, and must not pass for two.
import { createHash } from 'node:crypto'

export type FingerprintedRequest = { method: string; route: string; params: unknown; query: unknown; body: unknown }

const asJson = (value: unknown) => (value === undefined ? '' : JSON.stringify(value))

export function requestFingerprint(request: FingerprintedRequest): string {
  return createHash('sha256')
    .update(`${request.method.toUpperCase()} ${request.route}\n`)
    .update(`${asJson(request.params)}\n${asJson(request.query)}\n`)
    .update(asJson(request.body))
    .digest('hex')
}
