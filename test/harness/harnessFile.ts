// Where the test run's PostgreSQL lives and how test files find it.
import os from 'node:os'
import path from 'node:path'
import { createHash } from 'node:crypto'

export const HARNESS_FILE = path.resolve('.tap', 'test-postgres.json')

/** One cluster per checkout, so two checkouts on one machine never share one. */
export function harnessDataDir(): string {
  const id = createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)
  return path.join(os.tmpdir(), `payments-test-pg-${id}`)
}
