import t from 'tap'
import { MAX_ACTIVE_KEYS, organizationDecider } from '../../domain/organization/decider.js'
import type { OrganizationEvent } from '../../domain/organization/events.js'
import { generateAgentKey, generateApiKey, hashApiKey, keyKind } from '../../domain/organization/apiKeys.js'
import { spec } from './deciderSpec.js'

const now = '2026-11-21T10:00:00.000Z'
const created: OrganizationEvent = { type: 'OrganizationCreated', data: { organizationId: 'org_a', name: 'A', createdAt: now } }
const key = (n: number): OrganizationEvent => ({
  type: 'ApiKeyCreated',
  data: { keyId: `key_${n}`, organizationId: 'org_a', environment: 'sandbox', keyHash: 'a'.repeat(64), last4: 'abcd', createdAt: now },
})
const org = spec(organizationDecider)
const createKey = {
  type: 'CreateApiKey' as const,
  organizationId: 'org_a',
  keyId: 'key_new',
  environment: 'sandbox' as const,
  keyHash: 'b'.repeat(64),
  last4: 'wxyz',
  now,
}

t.test('organizations and keys', async (t) => {
  org.given([]).when({ type: 'CreateOrganization', organizationId: 'org_a', name: 'A', now }).then(t, [created])
  org
    .given([created])
    .when({ type: 'CreateOrganization', organizationId: 'org_a', name: 'A', now })
    .thenThrows(t, 'resource_already_exists')
  org.given([]).when(createKey).thenThrows(t, 'resource_not_found', 'no key for a missing organization')
  org
    .given([created])
    .when(createKey)
    .thenMatches(t, [{ type: 'ApiKeyCreated', data: { keyId: 'key_new' } }])
  org
    .given([created])
    .when({ ...createKey, role: 'AUDITOR' })
    .then(t, [
      {
        type: 'ApiKeyCreated',
        data: {
          keyId: 'key_new',
          organizationId: 'org_a',
          environment: 'sandbox',
          keyHash: 'b'.repeat(64),
          last4: 'wxyz',
          createdAt: now,
          role: 'AUDITOR',
        },
      },
    ])
  org
    .given([created])
    .when({ ...createKey, role: 'FULL' })
    .then(t, [
      {
        type: 'ApiKeyCreated',
        data: { keyId: 'key_new', organizationId: 'org_a', environment: 'sandbox', keyHash: 'b'.repeat(64), last4: 'wxyz', createdAt: now },
      },
    ])
  org
    .given([created, ...Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => key(i))])
    .when(createKey)
    .thenThrows(t, 'api_key_limit_reached')
  org
    .given([created, key(1)])
    .when({ type: 'RevokeApiKey', organizationId: 'org_a', keyId: 'key_1', now })
    .thenMatches(t, [{ type: 'ApiKeyRevoked' }])
  org.given([created]).when({ type: 'RevokeApiKey', organizationId: 'org_a', keyId: 'key_1', now }).thenThrows(t, 'resource_not_found')
})

t.test('key format and kinds', async (t) => {
  t.match(generateApiKey('sandbox'), /^sk_sandbox_[0-9A-Za-z]{32}$/)
  t.match(generateApiKey('production'), /^sk_live_[0-9A-Za-z]{32}$/)
  t.match(generateAgentKey('sandbox'), /^sk_sandbox_agent_[0-9A-Za-z]{32}$/)
  t.match(generateAgentKey('production'), /^sk_live_agent_[0-9A-Za-z]{32}$/)
  t.same(keyKind(generateAgentKey('production')), { environment: 'production', agent: true })
  t.same(keyKind('sk_sandbox_agent_x'), { environment: 'sandbox', agent: true })
  t.same(keyKind('sk_live_agent_x'), { environment: 'production', agent: true })
  t.same(keyKind('sk_live_x'), { environment: 'production', agent: false })
  t.equal(keyKind('pk_test_x'), undefined)
  t.match(hashApiKey('sk_sandbox_x'), /^[0-9a-f]{64}$/)
})
