// A rebuild keeps the tables it replaces; `rollback` brings exactly those back, caught up with what was
// written since, and keeps the ones it replaces in turn. Refused with nothing to roll back to, onto tables
// a migration changed, or to a version that had dead letters. A rollback that dies while catching up
// resumes where it stood. Asynchronous projections: the checkpoint comes back with the tables.
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { rebuildProjection } from '../../projections/runtime/rebuildProjection.js'
import { RollbackRefusedError, rollbackProjection } from '../../projections/runtime/rollbackProjection.js'
import { readKeptVersion } from '../../projections/runtime/keptVersions.js'
import { readCheckpoint } from '../../events/consumers/checkpoints.js'
import { verifyProjections } from '../../projections/runtime/verifyProjection.js'
import { eventsHead } from '../../projections/runtime/eventsHead.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'
import { appendEndpointHistory } from '../harness/endpointHistory.js'

const projector = webhookEndpointsProjector

async function createEndpoint(h: TestApp, i: number): Promise<string> {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: `https://example.com/${i}` } })
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`)
  return res.json().id as string
}

const description = async (h: TestApp, id: string) =>
  (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).json().description as string

const indexNames = async (h: TestApp) =>
  (
    await sql<{ indexname: string }>`
      SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'webhook_endpoints' ORDER BY 1`.execute(h.runtime.db)
  ).rows.map((r) => r.indexname)

async function refusal(t: Test, work: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  t.ok(error instanceof RollbackRefusedError, `refused: ${String(error)}`)
  if (error instanceof RollbackRefusedError) t.match(error, { reason, message })
}

t.test('rebuild keeps the old version; rollback brings it back, caught up; a second rollback undoes the first', async (t) => {
  const h = await startTestApp(t)
  const rollback = () => rollbackProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  const rebuild = () => rebuildProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  await refusal(t, rollback(), 'no_previous_version', /no previous version/)

  const first = await createEndpoint(h, 0)
  await createEndpoint(h, 1)
  const indexes = await indexNames(h)
  // A mark only the live tables have: a rebuild from the events cannot make it, so it tells the versions apart.
  await sql`UPDATE webhook_endpoints SET description = 'old version' WHERE id = ${first}`.execute(h.runtime.db)
  const headBefore = await eventsHead(h.runtime.db)

  const rebuilt = await rebuild()
  t.equal(rebuilt.previous.schema, 'previous_webhook_endpoints')
  t.equal(rebuilt.previous.position, headBefore, 'the replaced tables hold every event up to the head of the rebuild')
  t.equal(await description(h, first), '', 'the rebuilt tables serve')
  t.match(await readKeptVersion(h.runtime.db, projector.name), {
    schema: 'previous_webhook_endpoints',
    tables: ['webhook_endpoints', 'webhook_endpoint_counts'],
    position: headBefore,
    deadLetters: 0,
    replacedBy: 'rebuild',
  })

  const later = await createEndpoint(h, 2)
  const rolledBack = await rollback()
  t.equal(await description(h, first), 'old version', 'the old tables are back')
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${later}` })).statusCode, 200, 'with what was written since')
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })).json().data.length, 3)
  t.same(await indexNames(h), indexes, 'under the index names of the migrations')
  t.equal(rolledBack.position, await eventsHead(h.runtime.db))
  t.equal(rolledBack.restored.keptPosition, headBefore)
  t.match(await readKeptVersion(h.runtime.db, projector.name), { replacedBy: 'rollback', position: rolledBack.position })

  await createEndpoint(h, 3)
  await rollback()
  t.equal(await description(h, first), '', 'a second rollback brings the rebuilt tables back')
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })).json().data.length, 4)
  const [verified] = await verifyProjections(h.runtime.store, h.runtime.databaseUrl, [projector], h.runtime)
  t.equal(verified!.differences, 0, 'and they equal a fresh replay')
})

t.test('refused: tables a migration changed since, a version that had dead letters', async (t) => {
  const h = await startTestApp(t)
  await createEndpoint(h, 0)
  await rebuildProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  const rollback = () => rollbackProjection(h.runtime.store, h.runtime.db, projector, h.runtime)

  await sql`ALTER TABLE webhook_endpoints ADD COLUMN added_later text`.execute(h.runtime.db)
  await refusal(t, rollback(), 'previous_version_unusable', /webhook_endpoints: a migration/)
  await sql`ALTER TABLE webhook_endpoints DROP COLUMN added_later`.execute(h.runtime.db)

  await sql`UPDATE projection_versions SET kept_dead_letters = 2`.execute(h.runtime.db)
  await refusal(t, rollback(), 'previous_version_unusable', /had 2 dead letters/)
  await sql`UPDATE projection_versions SET kept_dead_letters = 0`.execute(h.runtime.db)
  await rollback()
  t.pass('accepted once the tables match and nothing was parked')
})

t.test('a rollback that dies while catching up resumes where it stood', async (t) => {
  const h = await startTestApp(t)
  await createEndpoint(h, 0)
  await rebuildProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  const kept = (await readKeptVersion(h.runtime.db, projector.name))!
  // Several batches to catch up over (creations: applied twice, they would fail on the primary key).
  await appendEndpointHistory(h.runtime.store, {
    organizationId: h.org.organizationId,
    endpoints: 500,
    eventsPerEndpoint: 6,
    appendsPerEndpoint: 2,
    concurrency: 8,
  })
  const died = await rollbackProjection(h.runtime.store, h.runtime.db, projector, h.runtime, {
    onProgress: (p) => {
      if (p.phase === 'catch-up' && p.events >= 2_000) throw new Error('killed')
    },
  }).then(
    () => undefined,
    (e: unknown) => e,
  )
  t.match(died, { message: 'killed' })
  const between = (await readKeptVersion(h.runtime.db, projector.name))!
  t.ok(between.position > kept.position, 'the kept version moved forward with the batches it applied')
  t.equal(between.replacedBy, 'rebuild', 'and is still the kept one')

  const resumed = await rollbackProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  t.ok(resumed.events < 3_000, `the second rollback read only what was left (${resumed.events} events)`)
  const [verified] = await verifyProjections(h.runtime.store, h.runtime.databaseUrl, [projector], h.runtime)
  t.equal(verified!.differences, 0, 'every event applied once')
})

t.test('async projections: the checkpoint comes back with the tables and the projector resumes after it', async (t) => {
  const h = await startTestApp(t, { PROJECTIONS: 'async' })
  t.equal(h.runtime.projectionMode, 'async')
  await createEndpoint(h, 0)
  const rebuilt = await rebuildProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  t.ok(rebuilt.previous.position <= rebuilt.position, 'the replaced tables were at their checkpoint, at most where the rebuild got')
  await createEndpoint(h, 1)
  const rolledBack = await rollbackProjection(h.runtime.store, h.runtime.db, projector, h.runtime)
  t.equal(await readCheckpoint(h.runtime.db, projector.name), rolledBack.position, 'the checkpoint is where the restored tables stand')
  const after = await createEndpoint(h, 2)
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${after}` })).statusCode, 200, 'the live projector goes on')
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints' })).json().data.length, 3)
  const [verified] = await verifyProjections(h.runtime.store, h.runtime.databaseUrl, [projector], h.runtime)
  t.equal(verified!.differences, 0)
})
