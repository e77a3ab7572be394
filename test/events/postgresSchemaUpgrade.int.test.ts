// A store made by an earlier version (jsonb data and metadata, a primary key on global_position
// beside the commit-order index, a table of stream revisions) is upgraded in place on start: its events stay readable, in
// order, and new appends land after them.
import t from 'tap'
import pg from 'pg'
import { randomUUID } from 'node:crypto'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { ev } from '../contract/eventStoreContract.js'

const EARLIER_SCHEMA = `
CREATE TABLE es_events (
  global_position bigserial PRIMARY KEY,
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
CREATE INDEX es_events_commit_order ON es_events (transaction_id, global_position);
CREATE TABLE es_streams (stream_name text PRIMARY KEY, revision bigint NOT NULL CHECK (revision >= -1));
`

t.test('an earlier store is upgraded on start', async (t) => {
  const url = await createTestDatabase(t)
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  t.teardown(() => admin.end())
  await admin.query(EARLIER_SCHEMA)
  await admin.query(`INSERT INTO es_streams VALUES ('old-1', 1)`)
  await admin.query(
    `INSERT INTO es_events (event_id, stream_name, stream_revision, event_type, data, metadata)
     VALUES ($1, 'old-1', 0, 'Opened', '{"amount": "10.00"}', '{"requestId": "req_1"}'), ($2, 'old-1', 1, 'Closed', '{}', '{}')`,
    [randomUUID(), randomUUID()],
  )

  const store = await getPostgresEventStore({ connectionString: url })
  t.teardown(() => store.close())
  const columns = await admin.query<{ attname: string; type: string }>(
    `SELECT attname, atttypid::regtype::text AS type FROM pg_attribute WHERE attrelid = 'es_events'::regclass AND attname IN ('data', ` +
      `'metadata') ORDER BY attname`,
  )
  t.same(columns.rows, [
    { attname: 'data', type: 'json' },
    { attname: 'metadata', type: 'json' },
  ])
  const key = await admin.query<{ definition: string }>(`SELECT pg_get_indexdef('es_events_pkey'::regclass) AS definition`)
  t.match(key.rows[0]!.definition, /\(transaction_id, global_position\)/, 'the commit order is the primary key')
  const old = await admin.query(`SELECT to_regclass('es_events_commit_order') AS idx, to_regclass('es_streams') AS streams`)
  t.equal(old.rows[0].idx, null, 'the separate commit-order index is gone')
  t.equal(old.rows[0].streams, null, 'the per-stream table is gone: revisions come from the events')

  const read = await store.readStream('old-1')
  t.same(
    read.map((e) => [e.type, e.data, e.metadata]),
    [
      ['Opened', { amount: '10.00' }, { requestId: 'req_1' }],
      ['Closed', {}, {}],
    ],
  )
  const appended = await store.appendToStream('old-1', [ev('Reopened')], { expectedRevision: 1n })
  t.equal(appended.nextExpectedRevision, 2n)
  // $all stops below the oldest transaction running anywhere in the cluster (other test files'
  // included), so the newest event may take a moment to be readable there.
  let all = await store.readAll({ maxCount: 10 })
  for (let tries = 0; all.length < 3 && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    all = await store.readAll({ maxCount: 10 })
  }
  t.same(
    all.map((e) => e.type),
    ['Opened', 'Closed', 'Reopened'],
    '$all keeps commit order across the upgrade',
  )

  // Starting again finds nothing left to change.
  const again = await getPostgresEventStore({ connectionString: url })
  await again.close()
  t.equal((await store.readStream('old-1')).length, 3)
})
