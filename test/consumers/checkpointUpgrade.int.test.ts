// Migration 0007 upgrades a database in place: the checkpoints of projection_checkpoints and
// webhook_subscriber_checkpoints move into consumer_checkpoints, the old tables go, and every
// consumer resumes where it stood.
import t from 'tap'
import { Migrator, sql } from 'kysely'
import { readCheckpoints } from '../../events/consumers/checkpoints.js'
import { encodePosition } from '../../events/store/positions.js'
import type { Position } from '../../events/store/port.js'
import { getPostgresEventStore } from '../../events/store/postgres/index.js'
import { allProjectors } from '../../projections/allProjectors.js'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import { migrationProvider } from '../../projections/migrations/index.js'
import { createProjectionRunner } from '../../projections/runtime/projectionRunner.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { testProtection } from '../domain/projectorSpec.js'

const url = await createTestDatabase(t)
const { db, pool } = openReadDatabase(url, 4)
t.teardown(() => db.destroy())
const silent = { info: () => undefined, error: () => undefined }

t.test('a database at migration 0006 with stored checkpoints keeps its positions', async (t) => {
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true })
  const to0006 = await migrator.migrateTo('0006_webhook_endpoint_counts')
  t.equal(to0006.error, undefined)
  const projected = new Map<string, Position>(allProjectors.map((p, i) => [p.name, encodePosition(7n, BigInt(10 + i))]))
  for (const [name, position] of projected) {
    await sql`INSERT INTO projection_checkpoints (name, position) VALUES (${name}, ${position})`.execute(db)
  }
  const subscriber = encodePosition(7n, 3n)
  await sql`INSERT INTO webhook_subscriber_checkpoints (name, position) VALUES ('webhook_messages', ${subscriber})`.execute(db)

  await migrateToLatest(db)

  const stored = await readCheckpoints(db)
  t.same(
    Object.fromEntries(stored),
    { ...Object.fromEntries(projected), webhook_messages: subscriber },
    'every checkpoint copied, positions unchanged',
  )
  const { rows } = await sql<{ old: string | null; subscriber: string | null }>`
    SELECT to_regclass('projection_checkpoints')::text AS old, to_regclass('webhook_subscriber_checkpoints')::text AS subscriber`.execute(
    db,
  )
  t.same(rows[0], { old: null, subscriber: null }, 'the two old tables are gone')

  // The projection runner resumes from them (nothing in the store lies past them to apply).
  const store = await getPostgresEventStore({ connectionString: url })
  t.teardown(() => store.close())
  const runner = createProjectionRunner({ store, db, projectors: allProjectors, protection: testProtection(pool), log: silent })
  await runner.catchUp()
  t.same(Object.fromEntries(runner.progress()), Object.fromEntries(projected), 'the runner starts where each projector stood')
  t.same(
    Object.fromEntries(await readCheckpoints(db)),
    { ...Object.fromEntries(projected), webhook_messages: subscriber },
    'and moves none back',
  )
})
