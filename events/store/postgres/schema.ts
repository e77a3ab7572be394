// DDL of the Postgres event store. Idempotent: safe to run on every start.
import type pg from 'pg'

export const EVENTS_TABLE_DDL = `
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigserial PRIMARY KEY,
  -- Readers of $all order by (transaction_id, global_position) and only read below the oldest
  -- running transaction, so a slow writer's events are never skipped (design.md).
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_name text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_name, stream_revision)
);
CREATE INDEX IF NOT EXISTS es_events_commit_order ON es_events (transaction_id, global_position);
-- One row per stream: the row lock serialises appends to a stream; revision -1 means no events.
CREATE TABLE IF NOT EXISTS es_streams (
  stream_name text PRIMARY KEY,
  revision bigint NOT NULL CHECK (revision >= -1)
);
-- Appends used to go through this function; they are one prepared statement now (appendStatement.ts).
DROP FUNCTION IF EXISTS es_append_batch(text[], text[], int[], int[], int[], uuid[], text[], jsonb[], jsonb[]);
`

export async function ensureEventStoreSchema(pool: pg.Pool): Promise<void> {
  // An advisory lock keeps two processes starting at once from racing on CREATE.
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7171001)')
    await client.query(EVENTS_TABLE_DDL)
  } finally {
    await client.query('SELECT pg_advisory_unlock(7171001)').catch(() => undefined)
    client.release()
  }
}
