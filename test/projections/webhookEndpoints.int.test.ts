// The webhook endpoints projector, given events then rows: each row is the endpoint's state as the
// decider evolves it (secrets included, JSON columns typed), with a count per organization.
import t from 'tap'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { webhookEndpointsProjector } from '../../projections/webhookEndpoints.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const endpoints = projectorSpec(await projectionDatabase(t), webhookEndpointsProjector)
const secret = (n: number) => `whsec_${Buffer.alloc(24, n).toString('base64')}`
const at = (day: number) => `2026-03-0${day}T10:00:00.000Z`

const created = (endpointId: string, organizationId = 'org_a'): WebhookEndpointEvent => ({
  type: 'WebhookEndpointCreated',
  data: {
    endpointId,
    organizationId,
    url: `https://example.com/${endpointId}`,
    description: '',
    filterTypes: [],
    metadata: { a: '1' },
    secret: secret(1),
    createdAt: at(1),
  },
})

t.test('created: the row with its JSON columns, disabled false, one current secret, counted', async (t) => {
  await endpoints.given([created('ep_1'), created('ep_2'), created('ep_3', 'org_b')]).thenRows(t, {
    webhook_endpoints: [
      {
        id: 'ep_1',
        organization_id: 'org_a',
        url: 'https://example.com/ep_1',
        description: '',
        filter_types: [],
        metadata: { a: '1' },
        disabled: false,
        secrets: [{ secret: secret(1), createdAt: at(1), expiresAt: null }],
        created_at: at(1),
        updated_at: at(1),
      },
      { id: 'ep_2', organization_id: 'org_a' },
      { id: 'ep_3', organization_id: 'org_b' },
    ],
    webhook_endpoint_counts: [
      { organization_id: 'org_a', endpoints: 2 },
      { organization_id: 'org_b', endpoints: 1 },
    ],
  })
})

t.test('updated: only the changed fields move (and updated_at)', async (t) => {
  const updated: WebhookEndpointEvent = {
    type: 'WebhookEndpointUpdated',
    data: { endpointId: 'ep_1', filterTypes: ['customer.created'], disabled: true, metadata: { b: '2' }, updatedAt: at(2) },
  }
  await endpoints.given([created('ep_1'), updated]).thenRows(t, {
    webhook_endpoints: [
      {
        id: 'ep_1',
        url: 'https://example.com/ep_1',
        filter_types: ['customer.created'],
        metadata: { b: '2' },
        disabled: true,
        created_at: at(1),
        updated_at: at(2),
      },
    ],
  })
})

t.test('secret rotated: the new secret first, the previous one given an expiry, at most five kept', async (t) => {
  const rotated = (n: number): WebhookEndpointEvent => ({
    type: 'WebhookEndpointSecretRotated',
    data: { endpointId: 'ep_1', secret: secret(n), previousSecretExpiresAt: at(n + 1), rotatedAt: at(n) },
  })
  await endpoints.given([created('ep_1'), rotated(2)]).thenRows(t, {
    webhook_endpoints: [
      {
        updated_at: at(2),
        secrets: [
          { secret: secret(2), createdAt: at(2), expiresAt: null },
          { secret: secret(1), createdAt: at(1), expiresAt: at(3) },
        ],
      },
    ],
  })
  const six = [created('ep_1'), rotated(2), rotated(3), rotated(4), rotated(5), rotated(6)]
  await endpoints.given(six).thenRows(t, {
    webhook_endpoints: [{ secrets: [secret(6), secret(5), secret(4), secret(3), secret(2)].map((s) => ({ secret: s })) }],
  })
})

t.test('deleted: the row is gone and the count drops, between creates in one batch', async (t) => {
  const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpointId: 'ep_1', deletedAt: at(2) } }
  await endpoints.given([created('ep_1'), created('ep_2'), deleted, created('ep_3')]).thenRows(t, {
    webhook_endpoints: [{ id: 'ep_2' }, { id: 'ep_3' }],
    webhook_endpoint_counts: [{ organization_id: 'org_a', endpoints: 2 }],
  })
})

t.test('a run of updates to two endpoints, interleaved: each row ends with all of its own, in order', async (t) => {
  const update = (endpointId: string, description: string, day: number): WebhookEndpointEvent => ({
    type: 'WebhookEndpointUpdated',
    data: { endpointId, description, updatedAt: at(day) },
  })
  const rotated: WebhookEndpointEvent = {
    type: 'WebhookEndpointSecretRotated',
    data: { endpointId: 'ep_2', secret: secret(2), previousSecretExpiresAt: at(5), rotatedAt: at(4) },
  }
  const events = [created('ep_1'), created('ep_2'), update('ep_1', 'one', 2), update('ep_2', 'two', 2), rotated, update('ep_1', 'three', 5)]
  await endpoints.given(events).thenRows(t, {
    webhook_endpoints: [
      { id: 'ep_1', description: 'three', updated_at: at(5), secrets: [{ secret: secret(1) }] },
      { id: 'ep_2', description: 'two', updated_at: at(4), secrets: [{ secret: secret(2) }, { secret: secret(1), expiresAt: at(5) }] },
    ],
    webhook_endpoint_counts: [{ organization_id: 'org_a', endpoints: 2 }],
  })
})

t.test('an update to an endpoint the read model never saw fails the batch', async (t) => {
  const updated: WebhookEndpointEvent = { type: 'WebhookEndpointUpdated', data: { endpointId: 'ep_9', disabled: true, updatedAt: at(2) } }
  await endpoints.given([updated]).thenThrows(t, /ep_9 has no row/)
})
