// tap `before` (through beforeRun.ts): starts one real PostgreSQL for the whole run (npm-shipped
// binaries, nothing to install) and records how to reach it. Each test file then creates its own database.
import { mkdir, writeFile } from 'node:fs/promises'
import pg from 'pg'
import { startEmbeddedPostgres } from '../../server/database/embeddedPostgres.js'
import { HARNESS_FILE, harnessDataDir } from './harnessFile.js'

/**
 * The run's cluster is thrown away afterwards and never outlives an operating-system crash, so it skips
 * flushing to disk: a commit costs ~0.3 ms instead of ~2.5 ms, and creating and dropping a test database
 * no longer waits on the disk. A PostgreSQL process that crashes or is killed still loses nothing (the
 * writes are in the kernel's page cache); the clusters the proofs restart are their own, not this one.
 */
const THROWAWAY_CLUSTER_SETTINGS = ['fsync = off', 'full_page_writes = off']

if (!process.env.TEST_DATABASE_URL) {
  const cluster = await startEmbeddedPostgres({ dataDir: harnessDataDir(), database: 'postgres' })
  const adminUrl = cluster.connectionString('postgres')
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  for (const setting of THROWAWAY_CLUSTER_SETTINGS) await admin.query(`ALTER SYSTEM SET ${setting}`)
  await admin.query('SELECT pg_reload_conf()')
  await admin.end()
  await mkdir('.tap', { recursive: true })
  await writeFile(HARNESS_FILE, JSON.stringify({ adminUrl, startedHere: cluster.startedHere }))
}
