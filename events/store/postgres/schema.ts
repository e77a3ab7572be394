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

// The hash chain (events/integrity/eventHash.ts): the writer passes each event's content hash; the append
// statement links an append's first event itself (appendStatement.ts), and for the others this trigger, in
// the append's own transaction, finds the stream's previous event hash (an earlier row of the same
// statement: a row trigger sees the rows its statement wrote before it), settles the time to the
// millisecond, and writes the event hash with the template of chainLinkText. Events stored
// before the chain have neither hash; the chain of their stream starts at its first hashed event (a
// row written around the append statement gets none either, and audit verify reports it).
export const HASH_CHAIN_DDL = `
ALTER TABLE es_events ADD COLUMN IF NOT EXISTS content_hash text, ADD COLUMN IF NOT EXISTS event_hash text;
CREATE OR REPLACE FUNCTION es_events_chain() RETURNS trigger LANGUAGE plpgsql AS $chain$
DECLARE
  previous text;
BEGIN
  NEW.recorded_at := date_trunc('milliseconds', NEW.recorded_at);
  IF NEW.stream_revision > 0 THEN
    SELECT x.event_hash INTO previous FROM es_events x
      WHERE x.stream_name = NEW.stream_name AND x.stream_revision = NEW.stream_revision - 1;
  END IF;
  NEW.event_hash := encode(sha256(convert_to(
    '{"contentHash":"' || NEW.content_hash || '","previousHash":' || coalesce('"' || previous || '"', 'null')
      || ',"recordedAt":"' || to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","revision":' || NEW.stream_revision || '}', 'UTF8')), 'hex');
  RETURN NEW;
END
$chain$;
-- Only for a row the statement could not link (not the first of its append): a plpgsql call per row costs
-- a quarter of a bare append's throughput, the WHEN test next to nothing.
CREATE OR REPLACE TRIGGER es_events_chain BEFORE INSERT ON es_events FOR EACH ROW
  WHEN (NEW.event_hash IS NULL AND NEW.content_hash IS NOT NULL) EXECUTE FUNCTION es_events_chain();
`

export async function ensureEventStoreSchema(pool: pg.Pool): Promise<void> {
  // An advisory lock keeps two processes starting at once from racing on CREATE.
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock(7171001)')
    await client.query(EVENTS_TABLE_DDL)
    await client.query(EVENTS_TABLE_UPGRADE)
    await client.query(HASH_CHAIN_DDL)
  } finally {
    await client.query('SELECT pg_advisory_unlock(7171001)').catch(() => undefined)
    client.release()
  }
}
