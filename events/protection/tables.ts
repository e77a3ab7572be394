// The data keys' table (migration 0009): one row per subject (a customer, an endpoint, a document
// without a customer), its data key wrapped by a KEK, or nothing once shredded. Not a projection:
// never rebuilt, and a shredded row stays so a subject can never get a new key.
import { type ColumnType, Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'

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
