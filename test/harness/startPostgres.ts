// tap `before`: starts one real PostgreSQL for the whole run (npm-shipped binaries, nothing to
// install) and records how to reach it. Each test file then creates its own database.
import { mkdir, writeFile } from 'node:fs/promises'
import { startEmbeddedPostgres } from '../../server/database/embeddedPostgres.js'
import { HARNESS_FILE, harnessDataDir } from './harnessFile.js'

if (!process.env.TEST_DATABASE_URL) {
  const cluster = await startEmbeddedPostgres({ dataDir: harnessDataDir(), database: 'postgres' })
  await mkdir('.tap', { recursive: true })
  await writeFile(HARNESS_FILE, JSON.stringify({ adminUrl: cluster.connectionString('postgres'), startedHere: cluster.startedHere }))
}
