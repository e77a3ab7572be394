// The benchmark's PostgreSQL: BENCH_DATABASE_URL when set (fresh databases are created on it and
// dropped afterwards), otherwise a throwaway embedded cluster in a temporary directory.
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedPostgres } from '../server/database/embeddedPostgres.js'
import { postmasterPidOf } from './cpu.js'

export type BenchPostgres = {
  description: string
  /** The postmaster's pid when the cluster is ours and local (for CPU accounting). */
  postmasterPid: number | undefined
  /** Creates a fresh database and returns its connection string. */
  createDatabase(purpose: string): Promise<string>
  query<Row extends pg.QueryResultRow>(sql: string): Promise<Row[]>
  close(): Promise<void>
}

function withDatabase(base: string, database: string): string {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

async function adminQuery<Row extends pg.QueryResultRow>(adminUrl: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return (await client.query<Row>(sql)).rows
  } finally {
    await client.end()
  }
}

export async function openBenchPostgres(): Promise<BenchPostgres> {
  const external = process.env.BENCH_DATABASE_URL
  let adminUrl: string
  let stopCluster: () => Promise<void> = async () => undefined
  let description: string
  let postmasterPid: number | undefined
  if (external) {
    adminUrl = external
    description = `BENCH_DATABASE_URL (${new URL(external).host})`
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'payments-bench-'))
    // As root, the cluster runs as the postgres user, which must be able to reach the directory.
    await chmod(dir, 0o755)
    try {
      const cluster = await startEmbeddedPostgres({ dataDir: dir, database: 'postgres' })
      adminUrl = cluster.connectionString('postgres')
      description = `embedded, throwaway (${dir})`
      postmasterPid = postmasterPidOf(path.join(dir, 'postgres'))
      stopCluster = async () => {
        await cluster.stop()
        await rm(dir, { recursive: true, force: true })
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true })
      throw error
    }
  }

  const prefix = `bench_${randomBytes(4).toString('hex')}`
  const created: string[] = []
  return {
    description,
    postmasterPid,
    async createDatabase(purpose) {
      const name = `${prefix}_${purpose.replace(/[^a-z0-9_]/gi, '')}`.toLowerCase()
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`)
      created.push(name)
      return withDatabase(adminUrl, name)
    },
    query: (sql) => adminQuery(adminUrl, sql),
    async close() {
      // The embedded cluster is removed whole; on an operator's server, drop what we created.
      for (const name of external ? created.splice(0) : []) {
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) => {
          process.stderr.write(`bench: could not drop database ${name}: ${String(error)}\n`)
        })
      }
      await stopCluster()
    },
  }
}
