// pino, JSON, with credentials and secrets redacted wherever they might appear.
import pino, { type Logger } from 'pino'

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.secret',
  '*.apiKey',
  '*.password',
  '*.taxIdentificationNumber',
]

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } })
}
