// Request ids: the caller's X-Request-Id when it is sane, else a fresh `req_` id; echoed on every
// response so a caller can quote it.
import type { IncomingMessage } from 'node:http'
import { newId } from '../domain/shared/ids.js'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/

export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && SANE.test(given) ? given : newId('req')
}
