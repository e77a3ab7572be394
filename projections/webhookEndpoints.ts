// Projects webhook endpoints, secrets included (the dispatcher signs with them).
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint/events.js'
import { MAX_SECRETS_KEPT } from '../domain/webhook-endpoint/decider.js'
import type { Insertable } from 'kysely'
import type { RecordedEvent } from '../events/store/port.js'
import type { Projector } from './runtime/projector.js'
import type { StoredSecret, WebhookEndpointsTable } from './schema.js'

type Created = Extract<WebhookEndpointEvent, { type: 'WebhookEndpointCreated' }>['data']

function createdRow(d: Created): Insertable<WebhookEndpointsTable> {
  const secrets: StoredSecret[] = [{ secret: d.secret, createdAt: d.createdAt, expiresAt: null }]
  return {
    id: d.endpointId,
    organization_id: d.organizationId,
    url: d.url,
    description: d.description,
    filter_types: JSON.stringify(d.filterTypes),
    metadata: JSON.stringify(d.metadata),
    disabled: false,
    secrets: JSON.stringify(secrets),
    created_at: d.createdAt,
    updated_at: d.createdAt,
  }
}

export const webhookEndpointsProjector: Projector = {
  // Runs of creates (the common case under load) become one multi-row INSERT; anything else
  // flushes the run first, so the order of effects is the order of events.
  async applyMany(db, events: RecordedEvent[]) {
    let run: Insertable<WebhookEndpointsTable>[] = []
    const flush = async () => {
      if (run.length > 0) await db.insertInto('webhook_endpoints').values(run).execute()
      run = []
    }
    for (const event of events) {
      if (event.type === 'WebhookEndpointCreated') run.push(createdRow(event.data as Created))
      else {
        await flush()
        await webhookEndpointsProjector.apply(db, event)
      }
    }
    await flush()
  },
  name: 'webhook_endpoints',
  tables: ['webhook_endpoints'],
  handles: new Set(['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated', 'WebhookEndpointDeleted']),
  async apply(db, recorded) {
    const event = { type: recorded.type, data: recorded.data } as WebhookEndpointEvent
    switch (event.type) {
      case 'WebhookEndpointCreated':
        await db.insertInto('webhook_endpoints').values(createdRow(event.data)).execute()
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
        await db.deleteFrom('webhook_endpoints').where('id', '=', event.data.endpointId).execute()
        return
    }
  },
}
