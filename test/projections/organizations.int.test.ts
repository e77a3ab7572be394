// The organizations projector, given events then rows: organizations and their API keys (hashes
// only), a revoked key kept with its revocation time.
import t from 'tap'
import type { OrganizationEvent } from '../../domain/organization/events.js'
import { organizationsProjector } from '../../projections/organizations.js'
import { projectionDatabase, projectorSpec } from '../domain/projectorSpec.js'

const organizations = projectorSpec(await projectionDatabase(t), organizationsProjector)
const now = '2026-03-01T10:00:00.000Z'
const later = '2026-03-02T10:00:00.000Z'
const hash = (c: string) => c.repeat(64)

const created: OrganizationEvent = { type: 'OrganizationCreated', data: { organizationId: 'org_a', name: 'Acme', createdAt: now } }
const key = (keyId: string, environment: 'sandbox' | 'production'): OrganizationEvent => ({
  type: 'ApiKeyCreated',
  data: { keyId, organizationId: 'org_a', environment, keyHash: hash(keyId.at(-1)!), last4: 'abcd', createdAt: now },
})

t.test('created with keys: one organization row, a row per key', async (t) => {
  await organizations.given([created, key('key_1', 'sandbox'), key('key_2', 'production')]).thenRows(t, {
    organizations: [{ id: 'org_a', name: 'Acme', created_at: now }],
    api_keys: [
      {
        id: 'key_1',
        organization_id: 'org_a',
        environment: 'sandbox',
        key_hash: hash('1'),
        last4: 'abcd',
        created_at: now,
        revoked_at: null,
      },
      { id: 'key_2', environment: 'production', key_hash: hash('2'), revoked_at: null },
    ],
  })
})

t.test('revoked: the key row stays, with its revocation time', async (t) => {
  const revoked: OrganizationEvent = { type: 'ApiKeyRevoked', data: { keyId: 'key_1', organizationId: 'org_a', revokedAt: later } }
  await organizations.given([created, key('key_1', 'sandbox'), key('key_2', 'sandbox'), revoked]).thenRows(t, {
    api_keys: [
      { id: 'key_1', revoked_at: later },
      { id: 'key_2', revoked_at: null },
    ],
  })
})
