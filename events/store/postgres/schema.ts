// DDL of the Postgres event store. Idempotent: safe to run on every start.
import type pg from 'pg'

export const EVENTS_TABLE_DDL = `
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigserial NOT NULL,
  -- Readers of $all order by (transaction_id, global_position) and only read below the oldest
  -- running transaction, so a slow writer's events are never skipped (design.md).
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_name text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  data json NOT NULL,
  metadata json NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_name, stream_revision),
  PRIMARY KEY (transaction_id, global_position)
);
-- Earlier versions appended through this function and kept a row per stream (es_streams). A stream's
-- revision is its last event's now, and the unique (stream_name, stream_revision) index settles
-- concurrent appends (appendStatement.ts): one row fewer to lock and update per append.
DROP FUNCTION IF EXISTS es_append_batch(text[], text[], int[], int[], int[], uuid[], text[], jsonb[], jsonb[]);
DROP TABLE IF EXISTS es_streams;
`

// Stores made by earlier versions: data and metadata were jsonb (json keeps the text as written and
// costs no conversion on append or read), and the commit-order index sat beside a primary key on
// global_position alone (one index fewer to write per event).
export const EVENTS_TABLE_UPGRADE = `
DO $upgrade$
BEGIN
  IF (SELECT atttypid FROM pg_attribute WHERE attrelid = 'es_events'::regclass AND attname = 'data') = 'jsonb'::regtype THEN
    ALTER TABLE es_events ALTER COLUMN data TYPE json USING data::json, ALTER COLUMN metadata TYPE json USING metadata::json;
  END IF;
  IF to_regclass('es_events_commit_order') IS NOT NULL THEN
    ALTER TABLE es_events DROP CONSTRAINT es_events_pkey, ADD PRIMARY KEY (transaction_id, global_position);
    DROP INDEX es_events_commit_order;
  END IF;
END
$upgrade$;
`

export async function ensureEventStoreSchema(pool: pg.Pool): Promise<void> {
  // An advisory lock keeps two processes starting at once from racing on CREATE.
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7171001)')
    await client.query(EVENTS_TABLE_DDL)
    await client.query(EVENTS_TABLE_UPGRADE)
  } finally {
    await client.query('SELECT pg_advisory_unlock(7171001)').catch(() => undefined)
    client.release()
  }
}
