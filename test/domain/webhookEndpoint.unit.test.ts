import t from 'tap'
import { type WebhookEndpointCommand, validSecrets, webhookEndpointDecider } from '../../domain/webhook-endpoint/decider.js'
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint/events.js'
import { spec } from './deciderSpec.js'

const now = '2026-11-21T10:00:00.000Z'
const created: WebhookEndpointEvent = {
  type: 'WebhookEndpointCreated',
  data: {
    endpointId: 'ep_1',
    organizationId: 'org_a',
    url: 'https://x.example/h',
    description: '',
    filterTypes: [],
    metadata: {},
    secret: 'whsec_first',
    createdAt: now,
  },
}
const createCmd: WebhookEndpointCommand = {
  type: 'CreateWebhookEndpoint',
  organizationId: 'org_a',
  endpointId: 'ep_1',
  now,
  url: 'https://x.example/h',
  description: '',
  filterTypes: [],
  metadata: {},
  secret: 'whsec_first',
  environment: 'sandbox',
}
const endpoint = spec(webhookEndpointDecider)

t.test('create', async (t) => {
  endpoint.given([]).when(createCmd).then(t, [created])
  endpoint.given([created]).when(createCmd).thenThrows(t, 'resource_already_exists')
  endpoint
    .given([])
    .when({ ...createCmd, url: 'http://x.example/h', environment: 'production' })
    .thenThrows(t, 'webhook_url_https_required')
  endpoint
    .given([])
    .when({ ...createCmd, url: 'http://x.example/h', environment: 'sandbox' })
    .thenMatches(t, [{ type: 'WebhookEndpointCreated' }], 'http allowed in sandbox')
})

t.test('another organization cannot touch it: not found', async (t) => {
  endpoint
    .given([created])
    .when({ type: 'DeleteWebhookEndpoint', organizationId: 'org_b', endpointId: 'ep_1', now })
    .thenThrows(t, 'resource_not_found')
  endpoint
    .given([])
    .when({ type: 'DeleteWebhookEndpoint', organizationId: 'org_a', endpointId: 'ep_1', now })
    .thenThrows(t, 'resource_not_found')
})

t.test('update records only what changes; deleted endpoints refuse everything', async (t) => {
  endpoint
    .given([created])
    .when({ type: 'UpdateWebhookEndpoint', organizationId: 'org_a', endpointId: 'ep_1', now, disabled: true, environment: 'sandbox' })
    .then(t, [{ type: 'WebhookEndpointUpdated', data: { endpointId: 'ep_1', disabled: true, updatedAt: now } }])
  const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpointId: 'ep_1', deletedAt: now } }
  endpoint
    .given([created, deleted])
    .when({ type: 'RotateWebhookEndpointSecret', organizationId: 'org_a', endpointId: 'ep_1', now, secret: 'whsec_x' })
    .thenThrows(t, 'resource_not_found')
})

t.test('rotation: previous secret valid for 24 hours, then not', async (t) => {
  const rotated: WebhookEndpointEvent = {
    type: 'WebhookEndpointSecretRotated',
    data: { endpointId: 'ep_1', secret: 'whsec_second', previousSecretExpiresAt: '2026-11-22T10:00:00.000Z', rotatedAt: now },
  }
  endpoint
    .given([created])
    .when({ type: 'RotateWebhookEndpointSecret', organizationId: 'org_a', endpointId: 'ep_1', now, secret: 'whsec_second' })
    .then(t, [rotated])
  const state = endpoint.given([created, rotated]).state
  if (state.status === 'none') throw new Error('unexpected')
  t.same(validSecrets(state.secrets, new Date('2026-11-22T09:59:59Z')), ['whsec_second', 'whsec_first'])
  t.same(validSecrets(state.secrets, new Date('2026-11-22T10:00:01Z')), ['whsec_second'])
})

t.test('evolve refuses an event before creation (a broken invariant stops loudly)', async (t) => {
  t.throws(() =>
    webhookEndpointDecider.evolve({ status: 'none' }, { type: 'WebhookEndpointDeleted', data: { endpointId: 'ep_1', deletedAt: now } }),
  )
})
