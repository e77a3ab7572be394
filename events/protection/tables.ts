// The data keys' table (migration 0009): one row per subject (a customer, an endpoint, a document
// without a customer), its data key wrapped by a KEK, or nothing once shredded. Not a projection:
// never rebuilt, and a shredded row stays so a subject can never get a new key.
import { type ColumnType, Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'

export interface DataKeysTable {
  subject: string
  /** Null once shredded. */
  kek_id: string | null
  wrapped_key: Buffer | null
  created_at: ColumnType<Date, Date | string | undefined, Date | string>
  shredded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** Who erased and why (bounded), for auditors; the audit event holds the same. */
  shred_reason: string | null
}

export interface DataKeyDatabase {
  data_keys: DataKeysTable
}

/** A Kysely over the same pool as the read database (closing the read database closes the pool). */
export function openDataKeyDatabase(pool: pg.Pool): Kysely<DataKeyDatabase> {
  return new Kysely<DataKeyDatabase>({ dialect: new PostgresDialect({ pool }) })
}

export const DATA_KEY_POOL_LIMITS = { poolSize: 4, statementTimeoutMs: 10_000 } as const

/**
 * Where new data keys are inserted when the events that use them go to the same PostgreSQL: the
 * insert commits without waiting for its WAL flush. Safe because the WAL is one sequence: whatever
 * refers to the key commits after it (the event append, a read-model row, a document), and the
 * flush that makes that durable makes the key durable too; a key lost in a crash was used by
 * nothing that survived. With EventStoreDB the events live elsewhere, so keys commit synchronously.
 * Shreds and re-wraps always do.
 */
export function openDataKeyCreationDatabase(connectionString: string, onError: (error: unknown) => void): Kysely<DataKeyDatabase> {
  const pool = new pg.Pool({
    connectionString,
    max: DATA_KEY_POOL_LIMITS.poolSize,
    statement_timeout: DATA_KEY_POOL_LIMITS.statementTimeoutMs,
    options: '-c synchronous_commit=off',
  })
  // As the read pool: a dropped idle connection or a FATAL between queries must not end the process.
  pool.on('error', onError)
  pool.on('connect', (client) => client.on('error', () => undefined))
  return new Kysely<DataKeyDatabase>({ dialect: new PostgresDialect({ pool }) })
}
