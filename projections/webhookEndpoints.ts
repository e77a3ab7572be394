// Projects webhook endpoints, secrets included (the dispatcher signs with them).
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint/events.js'
import { MAX_SECRETS_KEPT } from '../domain/webhook-endpoint/decider.js'
import { type Kysely, sql } from 'kysely'
import type { RecordedEvent } from '../events/store/port.js'
import type { Projector } from './runtime/projector.js'
import type { ReadDatabase, StoredSecret } from './schema.js'

type Created = Extract<WebhookEndpointEvent, { type: 'WebhookEndpointCreated' }>['data']

function createdRow(d: Created) {
  const secrets: StoredSecret[] = [{ secret: d.secret, createdAt: d.createdAt, expiresAt: null }]
  return {
    id: d.endpointId,
    organization_id: d.organizationId,
    url: d.url,
    description: d.description,
    filter_types: d.filterTypes,
    metadata: d.metadata,
    secrets,
    created_at: d.createdAt,
  }
}

/**
 * Inserts created endpoints with one statement whose text is the same for any number of rows (one
 * JSON parameter): a multi-row VALUES list would be compiled, sent and planned anew for every
 * size, which cost more than the rows themselves. The same statement adds them to their
 * organizations' counts (a CTE), so the count costs no extra round trip.
 */
function insertCreated(db: Kysely<ReadDatabase>, created: Created[]) {
  return db
    .with('inserted', (qb) => qb.insertInto('webhook_endpoints')
      .columns(['id', 'organization_id', 'url', 'description', 'filter_types', 'metadata', 'disabled', 'secrets', 'created_at', 'updated_at'])
      .expression(sql`SELECT r.id, r.organization_id, r.url, r.description, r.filter_types, r.metadata, false, r.secrets, r.created_at, r.created_at
        FROM json_to_recordset(${JSON.stringify(created.map(createdRow))}::json) AS r(id text, organization_id text, url text,
          description text, filter_types jsonb, metadata jsonb, secrets jsonb, created_at timestamptz)`)
      .returning('organization_id'))
    .insertInto('webhook_endpoint_counts')
    .columns(['organization_id', 'endpoints'])
    .expression(sql`SELECT organization_id, count(*)::int FROM inserted GROUP BY organization_id`)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet((eb) => ({ endpoints: eb('webhook_endpoint_counts.endpoints', '+', eb.ref('excluded.endpoints')) })))
    .execute()
}

/** Deletes an endpoint row and takes it off its organization's count, in one statement. */
function deleteEndpoint(db: Kysely<ReadDatabase>, endpointId: string) {
  return db
    .with('deleted', (qb) => qb.deleteFrom('webhook_endpoints').where('id', '=', endpointId).returning('organization_id'))
    .updateTable('webhook_endpoint_counts')
    .set((eb) => ({ endpoints: eb('endpoints', '-', 1) }))
    .where('organization_id', 'in', (eb) => eb.selectFrom('deleted').select('deleted.organization_id'))
    .execute()
}

export const webhookEndpointsProjector: Projector = {
  // Runs of creates (the common case under load) become one INSERT; anything else flushes the
  // run first, so the order of effects is the order of events.
  async applyMany(db, events: RecordedEvent[]) {
    let run: Created[] = []
    const flush = async () => {
      if (run.length > 0) await insertCreated(db, run)
      run = []
    }
    for (const event of events) {
      if (event.type === 'WebhookEndpointCreated') run.push(event.data as Created)
      else {
        await flush()
        await webhookEndpointsProjector.apply(db, event)
      }
    }
    await flush()
  },
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints', 'webhook_endpoint_counts'],
  handles: new Set(['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated', 'WebhookEndpointDeleted']),
  async apply(db, recorded) {
    const event = { type: recorded.type, data: recorded.data } as WebhookEndpointEvent
    switch (event.type) {
      case 'WebhookEndpointCreated':
        await insertCreated(db, [event.data])
        return
      case 'WebhookEndpointUpdated': {
        const d = event.data
        await db.updateTable('webhook_endpoints').set({
          ...(d.url !== undefined ? { url: d.url } : {}),
          ...(d.description !== undefined ? { description: d.description } : {}),
          ...(d.filterTypes !== undefined ? { filter_types: JSON.stringify(d.filterTypes) } : {}),
          ...(d.metadata !== undefined ? { metadata: JSON.stringify(d.metadata) } : {}),
          ...(d.disabled !== undefined ? { disabled: d.disabled } : {}),
          updated_at: d.updatedAt,
        }).where('id', '=', d.endpointId).execute()
        return
      }
      case 'WebhookEndpointSecretRotated': {
        const d = event.data
        const row = await db.selectFrom('webhook_endpoints').select('secrets').where('id', '=', d.endpointId).executeTakeFirstOrThrow()
        const retired = row.secrets.map((s) => (s.expiresAt === null ? { ...s, expiresAt: d.previousSecretExpiresAt } : s))
        const secrets = [{ secret: d.secret, createdAt: d.rotatedAt, expiresAt: null }, ...retired].slice(0, MAX_SECRETS_KEPT)
        await db.updateTable('webhook_endpoints').set({ secrets: JSON.stringify(secrets), updated_at: d.rotatedAt }).where('id', '=', d.endpointId).execute()
        return
      }
      case 'WebhookEndpointDeleted':
        await deleteEndpoint(db, event.data.endpointId)
        return
    }
  },
}
