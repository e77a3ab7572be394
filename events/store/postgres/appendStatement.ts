// The one statement that writes a group-commit batch, sent as a named prepared statement in
// autocommit: plain SQL (no PL/pgSQL), so Postgres plans it once per connection and a batch costs
// one round trip. Each stream appears at most once per batch (the group committer sees to it), so
// every append is checked against its stream's revision as locked, all in one set.
export const APPEND_STATEMENT_NAME = 'es_append_batch_v2'

// Parameters, one array entry per append ($1..$4) or per event ($5..$9):
//   $1 stream, $2 expectation ('any' | 'no_stream' | 'stream_exists' | 'revision'),
//   $3 expected revision (for 'revision'), $4 event count;
//   $5 1-based index of the event's append, $6 offset within its append, $7 event id, $8 type;
//   $9 and $10 the events' data and metadata as one JSON array each (one JSON.stringify, one parse).
export const APPEND_STATEMENT = `
WITH input AS (
  SELECT a.stream, a.kind, a.expected_revision, a.event_count, a.ord::int AS ord
  FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) WITH ORDINALITY
    AS a(stream, kind, expected_revision, event_count, ord)
), locked AS (
  -- Name order: concurrent batches lock shared streams in one order, so they never deadlock. A row
  -- updated meanwhile by another transaction is read as committed once its lock is ours.
  SELECT s.stream_name, s.revision FROM es_streams s
  WHERE s.stream_name = ANY ($1::text[]) ORDER BY s.stream_name FOR UPDATE
), decided AS (
  SELECT input.*, locked.stream_name IS NOT NULL AS has_row,
    coalesce(locked.revision, -1) AS current_revision,
    CASE input.kind
      WHEN 'any' THEN true
      WHEN 'no_stream' THEN coalesce(locked.revision, -1) < 0
      WHEN 'stream_exists' THEN coalesce(locked.revision, -1) >= 0
      WHEN 'revision' THEN input.expected_revision = coalesce(locked.revision, -1)
      ELSE false
    END AS accepted
  FROM input LEFT JOIN locked ON locked.stream_name = input.stream
), inserted AS (
  INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT e.id, d.stream, d.current_revision + 1 + e.event_offset, e.type, e.data, e.metadata
  FROM ROWS FROM (unnest($5::int[]), unnest($6::int[]), unnest($7::uuid[]), unnest($8::text[]),
    json_array_elements($9::json), json_array_elements($10::json)) WITH ORDINALITY
    AS e(append_index, event_offset, id, type, data, metadata, ord)
  JOIN decided d ON d.ord = e.append_index AND d.accepted
  ORDER BY e.ord
  RETURNING es_events.stream_name, es_events.transaction_id::text AS transaction_id, es_events.global_position
), advanced AS (
  UPDATE es_streams s SET revision = d.current_revision + d.event_count
  FROM decided d WHERE d.accepted AND d.has_row AND s.stream_name = d.stream
), created AS (
  -- A stream another process creates meanwhile makes this a unique violation: the committer
  -- then retries each append alone, and the retry sees that stream's row.
  INSERT INTO es_streams (stream_name, revision)
  SELECT d.stream, d.current_revision + d.event_count FROM decided d
  WHERE d.accepted AND NOT d.has_row ORDER BY d.stream
), last_written AS (
  SELECT i.stream_name, min(i.transaction_id) AS transaction_id, max(i.global_position) AS global_position
  FROM inserted i GROUP BY i.stream_name
), notified AS (
  -- Wakes subscribers in other processes; the payload is the batch's last position.
  SELECT pg_notify('es_appended', lpad(min(w.transaction_id), 20, '0') || '/' || lpad(max(w.global_position)::text, 20, '0'))
  FROM last_written w HAVING count(*) > 0
)
SELECT d.ord AS append_index, d.accepted, d.current_revision::text AS actual_revision,
  CASE WHEN d.accepted THEN (d.current_revision + d.event_count)::text END AS last_revision,
  w.transaction_id AS last_transaction_id, w.global_position::text AS last_global_position
FROM decided d
LEFT JOIN last_written w ON w.stream_name = d.stream
CROSS JOIN (SELECT count(*) FROM notified) AS n
ORDER BY d.ord
`
