// The webhook subscriber's endpoint snapshots, given events then rows: the row holds the endpoint's
// state as the decider evolves it (typed JSON), a deleted endpoint stays as a deleted snapshot.
import t from 'tap'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { parsedEvent } from '../../projections/parsedEvent.js'
import type { Projector } from '../../projections/runtime/projector.js'
import { applyEndpointEvent } from '../../webhooks/subscriber/endpointSnapshots.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

// The subscriber applies these inside its own batch; as a projector, the spec can drive it alone.
const snapshotsProjector: Projector = {
  name: 'webhook_delivery_endpoints',
  tables: ['webhook_delivery_endpoints'],
  handles: new Set(['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated', 'WebhookEndpointDeleted']),
  apply: (db, recorded, ctx) => applyEndpointEvent(db, parsedEvent<WebhookEndpointEvent>(recorded), ctx.protection),
}
const snapshots = projectorSpec(await projectionDatabase(t), snapshotsProjector)
const now = '2026-03-01T10:00:00.000Z'
const later = '2026-03-02T10:00:00.000Z'
const secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`

const created: WebhookEndpointEvent = {
  type: 'WebhookEndpointCreated',
  data: {
    endpointId: 'ep_1',
    organizationId: 'org_a',
    url: 'https://example.com/hook',
    description: '',
    filterTypes: ['customer.created'],
    metadata: {},
    secret,
    createdAt: now,
  },
}

t.test('created then disabled: the columns fan-out filters on, and the whole state', async (t) => {
  const disabled: WebhookEndpointEvent = { type: 'WebhookEndpointUpdated', data: { endpointId: 'ep_1', disabled: true, updatedAt: later } }
  await snapshots.given([created, disabled]).thenRows(t, {
    webhook_delivery_endpoints: [
      {
        id: 'ep_1',
        organization_id: 'org_a',
        disabled: true,
        deleted: false,
        filter_types: ['customer.created'],
        updated_at: later,
        state: {
          status: 'active',
          url: 'https://example.com/hook',
          disabled: true,
          secrets: [{ secret, expiresAt: null }],
          createdAt: now,
        },
      },
    ],
  })
})

t.test('deleted: the snapshot stays, marked deleted', async (t) => {
  const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpointId: 'ep_1', deletedAt: later } }
  await snapshots.given([created, deleted]).thenRows(t, {
    webhook_delivery_endpoints: [{ id: 'ep_1', deleted: true, state: { status: 'deleted', updatedAt: later } }],
  })
})
