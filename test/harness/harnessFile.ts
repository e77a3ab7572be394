// Where a test run's PostgreSQL and prebuilt programs live and how its test files find them. Keyed by
// the tap runner's pid (the parent of the `before` script and of every test file), so two runs in one
// checkout, at once, each get their own.
import os from 'node:os'
import path from 'node:path'
import { createHash } from 'node:crypto'

const runKey = `${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}-${process.ppid}`

export const HARNESS_FILE = path.resolve('.tap', `test-postgres-${runKey}.json`)

export function harnessDataDir(): string {
  return path.join(os.tmpdir(), `payments-test-pg-${runKey}`)
}

/** The run's prebuilt programs (test/harness/prebuilt.ts). */
export function harnessBuildDir(): string {
  return path.resolve('.tap', `prebuilt-${runKey}`)
}
