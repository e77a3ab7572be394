// Every log line a service process writes, kept in memory so a test can read it and the secrets
// check can scan it. The logger is the production one (server/logger.ts: level, redaction), only
// its destination differs.
import type { Logger } from 'pino'
import { createLogger } from '../../server/logger.js'

/** Past this many characters the capture stops keeping lines and says so (a check then fails loudly). */
export const LOG_CAPTURE_MAX_CHARS = 50_000_000

export type LogCapture = {
  logger: Logger
  /** Adds lines a process wrote elsewhere (a spawned server's stdout and stderr). */
  append(text: string): void
  lines(): readonly string[]
  /** Characters dropped after the capture was full: a scan of a truncated capture proves nothing. */
  droppedChars(): number
}

export function createLogCapture(level = 'debug'): LogCapture {
  const lines: string[] = []
  let chars = 0
  let dropped = 0
  const append = (text: string) => {
    for (const line of text.split('\n')) {
      if (line.length === 0) continue
      if (chars + line.length > LOG_CAPTURE_MAX_CHARS) {
        dropped += line.length
        continue
      }
      chars += line.length
      lines.push(line)
    }
  }
  return {
    logger: createLogger(level, { write: append }),
    append,
    lines: () => lines,
    droppedChars: () => dropped,
  }
}
