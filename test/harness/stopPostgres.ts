// tap `after` (through afterRun.ts): stops the run's PostgreSQL and removes its files.
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { stopClusterDir } from '../../server/database/embeddedPostgres.js'
import { HARNESS_FILE, harnessDataDir } from './harnessFile.js'

if (existsSync(HARNESS_FILE)) {
  await stopClusterDir(path.join(harnessDataDir(), 'postgres'), 'immediate').catch(() => undefined)
  await rm(harnessDataDir(), { recursive: true, force: true })
  await rm(HARNESS_FILE, { force: true })
}
