// pino, JSON, with credentials and secrets redacted wherever they might appear.
import pino, { type DestinationStream, type Logger } from 'pino'

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  // The console's session token travels in cookies (server/console/sessionCookie.ts).
  'req.headers.cookie',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.secret',
  '*.apiKey',
  '*.password',
  '*.taxIdentificationNumber',
]

/** `destination` defaults to stdout; tests pass a capture to search the lines for secrets. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  return destination ? pino(options, destination) : pino(options)
}
