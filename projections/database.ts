// Opens the read-model database and brings its schema up to date.
import { Kysely, Migrator, PostgresDialect } from 'kysely'
import pg from 'pg'
import { migrationProvider } from './migrations/index.js'
import type { ReadDatabase } from './schema.js'

export const READ_DB_LIMITS = {
  /**
   * Reads are short: on 2 cores, 10 connections keep Postgres busy, and 20 only added backends to
   * wake and switch between (the endpoint list ran 0.77-0.84x the read toy with 20, 0.87x with 10).
   */
  poolSize: 10,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 10_000,
} as const

// Postgres bigint (int8) and numeric come back as strings by default; keep it that way on purpose:
// money is never parsed into a JS number.
export function openReadDatabase(
  connectionString: string,
  poolSize: number = READ_DB_LIMITS.poolSize,
  onError: (error: unknown) => void = () => undefined,
): { db: Kysely<ReadDatabase>; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    statement_timeout: READ_DB_LIMITS.statementTimeoutMs,
    idle_in_transaction_session_timeout: READ_DB_LIMITS.idleInTransactionTimeoutMs,
  })
  // An idle connection that the server drops (restart, failover) must not crash the process:
  // pg emits 'error' on the pool, and an unhandled 'error' event throws.
  pool.on('error', onError)
  // A client checked out of the pool has no 'error' listener of the pool's: a FATAL arriving between
  // its queries (the server restarting, 57P01) would be an unhandled 'error' and end the process.
  // It fails its next query instead, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined))
  return { db: new Kysely<ReadDatabase>({ dialect: new PostgresDialect({ pool }) }), pool }
}

export async function migrateToLatest(db: Kysely<ReadDatabase>): Promise<void> {
  // Migrations are independent table creations, numbered per area; a database migrated while one
  // landed before a lower-numbered one must still accept the other.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`)
}
