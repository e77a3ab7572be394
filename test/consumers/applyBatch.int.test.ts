// A consumer batch is one transaction: effects (here a projector's rows) and checkpoints commit together
// or not at all, and events at or below a consumer's stored checkpoint are not applied twice.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { migrateToLatest, openReadDatabase } from '../../projections/database.js'
import { CheckpointBehindError, applyBatch, ensureCheckpoints } from '../../events/consumers/applyBatch.js'
import { type Projector, projectorConsumer } from '../../projections/runtime/projector.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import type { RecordedEvent } from '../../events/store/port.js'
import { encodePosition } from '../../events/store/positions.js'
import { createTestDatabase } from '../harness/testDatabase.js'
import { testProtection } from '../domain/projectorSpec.js'

const url = await createTestDatabase(t)
const { db, pool } = openReadDatabase(url, 2)
t.teardown(() => db.destroy())
await migrateToLatest(db)

let nextPosition = 1
function created(organizationId: string): RecordedEvent {
  const endpointId = `ep_${randomUUID().replaceAll('-', '').slice(0, 26)}`
  const createdAt = new Date().toISOString()
  return {
    id: randomUUID(),
    stream: `webhookEndpoint-${endpointId}`,
    revision: 0n,
    position: encodePosition(1000n, BigInt(nextPosition++)),
    type: 'WebhookEndpointCreated',
    data: {
      organizationId,
      endpointId,
      url: 'https://example.com/hook',
      description: '',
      filterTypes: [],
      metadata: { a: '1' },
      secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
      environment: 'sandbox',
      createdAt,
    },
    metadata: { organizationId, requestId: 'req_1', actor: 'key_1' },
    recordedAt: new Date(),
  }
}

const checkpoint = async (name: string) =>
  (await db.selectFrom('consumer_checkpoints').select('position').where('name', '=', name).executeTakeFirstOrThrow()).position
const endpointsOf = async (organizationId: string) =>
  await db.selectFrom('webhook_endpoints').select(['id', 'metadata']).where('organization_id', '=', organizationId).orderBy('id').execute()

await ensureCheckpoints(db, [webhookEndpointsProjector.name, 'failing'])
const ctx = { protection: testProtection(pool) }
const endpoints = projectorConsumer(webhookEndpointsProjector, ctx)

t.test('rows and checkpoint commit together; a replayed batch is skipped', async (t) => {
  const org = `org_${randomUUID()}`
  const events = [created(org), created(org), created(org)]
  const after = await applyBatch(db, [endpoints], events)
  t.equal(after.get(webhookEndpointsProjector.name), events[2]!.position)
  t.equal(await checkpoint(webhookEndpointsProjector.name), events[2]!.position)
  const rows = await endpointsOf(org)
  t.equal(rows.length, 3)
  t.same(rows[0]!.metadata, { a: '1' }, 'JSON columns keep their values')
  // The same events again (another process got there first): nothing applied twice, no error.
  await applyBatch(db, [endpoints], events)
  t.equal((await endpointsOf(org)).length, 3)
  t.equal(await checkpoint(webhookEndpointsProjector.name), events[2]!.position, 'the checkpoint never goes back')
})

t.test('a projector that fails rolls back every row and checkpoint of the batch', async (t) => {
  const org = `org_${randomUUID()}`
  const before = await checkpoint(webhookEndpointsProjector.name)
  const failing: Projector = {
    name: 'failing',
    tables: [],
    handles: new Set(['WebhookEndpointCreated']),
    apply: async () => {
      throw new Error('projector bug')
    },
  }
  // Ordered so the endpoints projector writes its rows first, then the failing one throws.
  const projectors = [webhookEndpointsProjector, failing].sort((a, b) => (a.name > b.name ? -1 : 1))
  t.equal(projectors[0], webhookEndpointsProjector)
  await t.rejects(
    applyBatch(
      db,
      projectors.map((p) => projectorConsumer(p, ctx)),
      [created(org), created(org)],
    ),
    /projector bug/,
  )
  t.same(await endpointsOf(org), [], 'no rows')
  t.equal(await checkpoint(webhookEndpointsProjector.name), before, 'checkpoint unchanged')
  t.equal(await checkpoint('failing'), '', 'the failing one unchanged too')
  // The connection went back to the pool usable: the next batch commits.
  const next = await applyBatch(db, [endpoints], [created(org)])
  t.ok(next.get(webhookEndpointsProjector.name)! > before)
  t.equal((await endpointsOf(org)).length, 1)
})

t.test('a stored checkpoint behind one this process committed (lost commits) is refused, nothing written', async (t) => {
  const org = `org_${randomUUID()}`
  const stored = await checkpoint(webhookEndpointsProjector.name)
  const ahead = new Map([[webhookEndpointsProjector.name, encodePosition(999_999n, 0n)]])
  const error = await applyBatch(db, [endpoints], [created(org)], { committed: ahead }).catch((e: unknown) => e)
  t.ok(error instanceof CheckpointBehindError, 'refused')
  t.equal(
    (error as CheckpointBehindError).stored.get(webhookEndpointsProjector.name),
    stored,
    'names the stored checkpoints to replay from',
  )
  t.same(await endpointsOf(org), [], 'nothing written')
  t.equal(await checkpoint(webhookEndpointsProjector.name), stored, 'checkpoint unchanged')
})
