// The security headers of every /console page and file: a strict Content-Security-Policy (the
// console's own scripts, styles and API calls only; no inline code, no frames, no plugins, no
// foreign forms), no MIME sniffing, no referrer, no framing, and HSTS in production.
import type { FastifyReply } from 'fastify'
import type { Environment } from '../../domain/shared/environment.js'

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ')

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
}

/** A year: production is served over TLS only (the session cookie is Secure there). */
const HSTS = 'max-age=31536000'

export function setConsoleHeaders(reply: FastifyReply, environment: Environment): void {
  reply.headers(CONSOLE_HEADERS)
  if (environment === 'production') reply.header('strict-transport-security', HSTS)
}
