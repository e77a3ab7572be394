// The whole group commit as one set-based function, so a batch costs one round trip (autocommit)
// instead of four. Appends are checked in queue order per stream: walking streams and appends both
// sorted by stream name keeps it O(n log n), with no per-event statements.
export const APPEND_FUNCTION_DDL = `
CREATE OR REPLACE FUNCTION es_append_batch(
  p_streams text[],          -- per append: its stream
  p_expected text[],         -- per append: 'any' | 'no_stream' | 'stream_exists' | '<revision>'
  p_counts int[],            -- per append: number of events
  p_event_append int[],      -- per event: 1-based index of its append
  p_event_offset int[],      -- per event: 0-based index within its append
  p_event_ids uuid[],
  p_event_types text[],
  p_event_data jsonb[],
  p_event_metadata jsonb[]
) RETURNS TABLE (append_index int, accepted boolean, actual_revision bigint, last_revision bigint, last_position text)
LANGUAGE plpgsql AS $fn$
DECLARE
  n int := coalesce(array_length(p_streams, 1), 0);
  lock_names text[];
  lock_revs bigint[];
  reserved bigint[];
  ok boolean[] := array_fill(false, ARRAY[n]);
  actual bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  start_rev bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  k int := 1;
  cur bigint;
  r record;
BEGIN
  -- One statement locks every stream row (name order, so batches never deadlock) and reserves
  -- the batch's events optimistically: revision += the stream's total. The revision before the
  -- batch is new - total. If an append is then rejected, a second statement corrects the rows.
  WITH totals AS (
    SELECT u.s, sum(u.c)::bigint AS c FROM unnest(p_streams, p_counts) AS u(s, c) GROUP BY u.s
  ), locked AS (
    INSERT INTO es_streams AS es (stream_name, revision)
    SELECT totals.s, totals.c - 1 FROM totals ORDER BY totals.s
    ON CONFLICT (stream_name) DO UPDATE SET revision = es.revision + EXCLUDED.revision + 1
    RETURNING es.stream_name, es.revision
  )
  SELECT array_agg(locked.stream_name ORDER BY locked.stream_name),
         array_agg(locked.revision - totals.c ORDER BY locked.stream_name),
         array_agg(locked.revision ORDER BY locked.stream_name)
    INTO lock_names, lock_revs, reserved
    FROM locked JOIN totals ON totals.s = locked.stream_name;

  FOR r IN SELECT u.s, u.ord::int AS i FROM unnest(p_streams) WITH ORDINALITY AS u(s, ord) ORDER BY u.s, u.ord LOOP
    WHILE lock_names[k] <> r.s LOOP k := k + 1; END LOOP;
    cur := lock_revs[k];
    actual[r.i] := cur;
    IF p_expected[r.i] = 'any'
       OR (p_expected[r.i] = 'no_stream' AND cur < 0)
       OR (p_expected[r.i] = 'stream_exists' AND cur >= 0)
       OR (p_expected[r.i] ~ '^[0-9]+$' AND p_expected[r.i]::bigint = cur) THEN
      ok[r.i] := true;
      start_rev[r.i] := cur + 1;
      lock_revs[k] := cur + p_counts[r.i];
    END IF;
  END LOOP;

  RETURN QUERY
  WITH ins AS (
    INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata)
    SELECT e.id, p_streams[e.a], start_rev[e.a] + e.o, e.t, e.d, e.m
    FROM unnest(p_event_ids, p_event_types, p_event_data, p_event_metadata, p_event_append, p_event_offset)
      WITH ORDINALITY AS e(id, t, d, m, a, o, ord)
    WHERE ok[e.a]
    ORDER BY e.ord
    RETURNING es_events.stream_name AS sn, es_events.stream_revision AS sr,
      lpad(es_events.transaction_id::text, 20, '0') || '/' || lpad(es_events.global_position::text, 20, '0') AS p
  ), upd AS (
    -- Only when an append was rejected: give those streams back what was reserved for it.
    UPDATE es_streams SET revision = v.rev
    FROM unnest(lock_names, lock_revs, reserved) AS v(name, rev, reserved_rev)
    WHERE es_streams.stream_name = v.name AND v.rev <> v.reserved_rev
  ), notified AS (
    SELECT pg_notify('es_appended', max(ins.p)) AS x FROM ins
  )
  SELECT a.ord::int, ok[a.ord], actual[a.ord],
    CASE WHEN ok[a.ord] THEN start_rev[a.ord] + p_counts[a.ord] - 1 END,
    ins.p
  FROM unnest(p_streams) WITH ORDINALITY AS a(s, ord)
  CROSS JOIN (SELECT count(*) FROM notified) AS nn
  LEFT JOIN ins ON ok[a.ord] AND ins.sn = a.s AND ins.sr = start_rev[a.ord] + p_counts[a.ord] - 1
  ORDER BY a.ord;
END
$fn$;
`
