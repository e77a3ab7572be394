// How a database's read models are kept, settled on start (projections/runtime/projectionMode.ts):
// - a database from before the modes (no row in projection_mode, its projectors asynchronous) turns
//   inline on its next start, after its projectors caught up with the events they had not applied;
// - one with dead letters parked for a projector stays asynchronous (they must be replayed in order);
// - the first process records the mode, and later ones follow it whatever PROJECTIONS they were given.
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { createOrganization } from '../../commands/organizations/organizationCommands.js'
import { loadConfig } from '../../server/config.js'
import { openRuntime, type Runtime } from '../../server/runtime.js'
import { makeTestDatabase } from '../harness/testDatabase.js'
import { TEST_DATA_ENCRYPTION_KEY } from '../harness/testApp.js'

async function databaseFor(t: Test): Promise<string> {
  const { url, drop } = await makeTestDatabase()
  t.teardown(drop)
  return url
}

async function open(url: string, projections?: 'inline' | 'async'): Promise<Runtime> {
  return openRuntime(
    loadConfig({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
      ...(projections ? { PROJECTIONS: projections } : {}),
    }),
    { info: () => undefined, error: () => undefined },
    { poolSize: 4 },
  )
}

const organizationRows = async (runtime: Runtime) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM organizations`.execute(runtime.db)).rows[0]!.n)

/** A database as issue 24 left it: projectors asynchronous, no mode recorded, the last events not yet applied. */
async function legacyDatabase(t: Test): Promise<string> {
  const url = await databaseFor(t)
  const before = await open(url, 'async')
  t.equal(before.projectionMode, 'async')
  await before.runner.start()
  await createOrganization(before.commands, { name: 'Applied', environment: 'sandbox', actor: 'test' })
  // $all is read gap-safe, and transaction ids are the cluster's (other test files' databases share it): a catch-up
  // may stop short of a commit while an older transaction elsewhere runs, so catch up again (bounded) until it shows.
  for (let tries = 0; (await organizationRows(before)) < 1 && tries < 200; tries++) {
    await before.runner.catchUp()
    if ((await organizationRows(before)) < 1) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await before.runner.stop()
  // Appended while no projector runs: not applied when the process stops.
  for (const name of ['Pending 1', 'Pending 2', 'Pending 3'])
    await createOrganization(before.commands, { name, environment: 'sandbox', actor: 'test' })
  t.equal(await organizationRows(before), 1, 'three organizations are not projected yet')
  await sql`DELETE FROM projection_mode`.execute(before.db)
  await before.close()
  return url
}

t.test('a database from before the modes turns inline once its projectors caught up', async (t) => {
  const url = await legacyDatabase(t)
  const after = await open(url)
  t.teardown(() => after.close())
  t.equal(after.projectionMode, 'inline', 'inline from now on')
  t.equal(await organizationRows(after), 4, 'the events it had not applied were applied before the switch')
  await createOrganization(after.commands, { name: 'Inline', environment: 'sandbox', actor: 'test' })
  t.equal(await organizationRows(after), 5, 'and a new append writes its row in its own transaction')
})

t.test('dead letters parked for a projector keep it asynchronous', async (t) => {
  const url = await legacyDatabase(t)
  const parker = await open(url, 'async')
  // A letter as the runtime parks one (events/consumers/deadLetters.ts): its stream waits for a replay.
  await sql`INSERT INTO consumer_parked
      (consumer, event_id, consumer_group, stream, stream_revision, event_type, event_position, reason, attempts)
    VALUES ('organizations', 'evt-parked', 'projections', 'organization-org_x', 0, 'OrganizationCreated', '', 'failed', 1)`.execute(
    parker.db,
  )
  await sql`DELETE FROM projection_mode`.execute(parker.db)
  await parker.close()
  const after = await open(url)
  t.teardown(() => after.close())
  t.equal(after.projectionMode, 'async', 'still asynchronous, so the parked streams can be replayed in order')
})

t.test('the first process records the mode; a later one asking otherwise follows it', async (t) => {
  const url = await databaseFor(t)
  const first = await open(url, 'async')
  t.equal(first.projectionMode, 'async')
  await first.close()
  const second = await open(url, 'inline')
  t.teardown(() => second.close())
  t.equal(second.projectionMode, 'async', 'the recorded mode wins')
})
