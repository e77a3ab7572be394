// A fresh database for one test file, dropped when the file's tests end.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { HARNESS_FILE } from './harnessFile.js'

type Teardown = { teardown: (fn: () => Promise<void> | void) => void }

export function adminUrl(): string {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL
  return (JSON.parse(readFileSync(HARNESS_FILE, 'utf8')) as { adminUrl: string }).adminUrl
}

export function databaseUrl(base: string, database: string): string {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

/** A fresh database and the function that drops it; the caller decides when. */
export async function makeTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl() })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  return {
    url: databaseUrl(adminUrl(), name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

/** A fresh database dropped when the test ends. Close your own connections first. */
export async function createTestDatabase(t: Teardown): Promise<string> {
  const { url, drop } = await makeTestDatabase()
  t.teardown(drop)
  return url
}
