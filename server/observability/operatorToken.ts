// The operator's token (METRICS_TOKEN) on the routes outside /v1 that show more than a status:
// /metrics, and the dead letters' details in /health. Compared as hashes in constant time.
import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Whether `authorization` is `Bearer <token>`; false whenever no token is configured. */
export function bearsOperatorToken(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined || authorization === undefined) return false
  const match = /^Bearer (.+)$/.exec(authorization)
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token))
}
