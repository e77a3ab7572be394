// The one statement that writes a group-commit batch, sent as a named prepared statement in
// autocommit: plain SQL, so Postgres plans it once per connection and a batch costs one round
// trip. Kept to one INSERT: each plan node costs set-up time on every execution, and that fixed
// cost, not the rows, dominates a batch of a few events.
//
// Each event's append is decided against its stream's last revision as this statement sees it.
// A stream written meanwhile by another transaction cannot slip through: both would insert the
// same (stream_name, stream_revision), and the unique index makes the later one fail
// (STREAM_REVISION_CONSTRAINT), after which the append is decided again on fresh data.
export const APPEND_STATEMENT_NAME = 'es_append_batch_v7'

/** The unique index on (stream_name, stream_revision): its violation means a concurrent append. */
export const STREAM_REVISION_CONSTRAINT = 'es_events_stream_name_stream_revision_key'

// Parameters, one array entry per event, in batch order (an append's events together):
//   $1 stream, $2 expectation ('any' | 'no_stream' | 'stream_exists' | 'revision'),
//   $3 expected revision (for 'revision'), $4 offset of the event within its append,
//   $5 event id, $6 type; $7 and $8 the events' data and metadata as one JSON array each; $9 their
//   content hashes, which the statement links to the stream's previous event (the first of an append) or
//   the schema's trigger does (the others: their previous event is a row of this statement).
// Answers one row per event written; an append whose expectation failed writes none.
export const APPEND_STATEMENT = `
WITH inserted AS (
  INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata, content_hash, recorded_at, event_hash)
  SELECT e.id, e.stream, coalesce(s.revision, -1) + 1 + e.event_offset, e.type, e.data, e.metadata, e.content_hash,
    date_trunc('milliseconds', now()),
    -- An append's first event links to the stream's last one, found by the join below; the others, to the row
    -- before them in this statement: the schema's trigger links those (events/store/postgres/schema.ts).
    CASE WHEN e.event_offset = 0 THEN encode(sha256(convert_to(
      '{"contentHash":"' || e.content_hash || '","previousHash":' || coalesce('"' || s.hash || '"', 'null')
        || ',"recordedAt":"' || to_char(date_trunc('milliseconds', now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","revision":' || (coalesce(s.revision, -1) + 1) || '}', 'UTF8')), 'hex') END
  FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::bigint[]), unnest($4::int[]),
    unnest($5::uuid[]), unnest($6::text[]), json_array_elements($7::json), json_array_elements($8::json), unnest($9::text[]))
    WITH ORDINALITY AS e(stream, kind, expected_revision, event_offset, id, type, data, metadata, content_hash, ord)
  -- The stream's last revision; none when it has no events. A join, not a scalar subquery: the
  -- per-event subplan cost a tenth of a batch.
  LEFT JOIN LATERAL (
    SELECT x.stream_revision AS revision, x.event_hash AS hash FROM es_events x WHERE x.stream_name = e.stream
      ORDER BY x.stream_revision DESC LIMIT 1
  ) s ON true
  WHERE CASE e.kind
    WHEN 'any' THEN true
    WHEN 'no_stream' THEN s.revision IS NULL
    WHEN 'stream_exists' THEN s.revision IS NOT NULL
    WHEN 'revision' THEN e.expected_revision = s.revision
    ELSE false
  END
  -- Global positions are drawn in this order, so a stream's events read back in revision order.
  ORDER BY e.ord
  RETURNING es_events.stream_name, es_events.stream_revision, es_events.transaction_id::text AS transaction_id,
    es_events.global_position, es_events.recorded_at, es_events.event_hash
), notified AS (
  -- Wakes subscribers in other processes; the payload is the batch's last position.
  SELECT pg_notify('es_appended', lpad(max(i.transaction_id), 20, '0') || '/' || lpad(max(i.global_position)::text, 20, '0'))
  FROM inserted i HAVING count(*) > 0
)
SELECT i.stream_name, i.stream_revision::text, i.transaction_id, i.global_position::text, i.recorded_at, i.event_hash
FROM inserted i CROSS JOIN (SELECT count(*) FROM notified) AS n
`

/** Each stream's last revision (-1 when it has no events), in the order asked. */
export const CURRENT_REVISIONS_STATEMENT = `
SELECT coalesce((SELECT x.stream_revision FROM es_events x WHERE x.stream_name = s.stream
  ORDER BY x.stream_revision DESC LIMIT 1), -1)::text AS revision
FROM unnest($1::text[]) WITH ORDINALITY AS s(stream, ord)
ORDER BY s.ord
`
