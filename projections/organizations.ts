// Projects organizations and their API keys (hashes only), for authentication.
import type { OrganizationEvent } from '../domain/organization/events.js'
import type { Projector } from './runtime/projector.js'

export const organizationsProjector: Projector = {
  name: 'organizations',
  tables: ['organizations', 'api_keys'],
  handles: new Set(['OrganizationCreated', 'ApiKeyCreated', 'ApiKeyRevoked']),
  async apply(db, recorded) {
    const event = { type: recorded.type, data: recorded.data } as OrganizationEvent
    switch (event.type) {
      case 'OrganizationCreated':
        await db.insertInto('organizations').values({ id: event.data.organizationId, name: event.data.name, created_at: event.data.createdAt }).execute()
        return
      case 'ApiKeyCreated':
        await db.insertInto('api_keys').values({
          id: event.data.keyId,
          organization_id: event.data.organizationId,
          environment: event.data.environment,
          key_hash: event.data.keyHash,
          last4: event.data.last4,
          created_at: event.data.createdAt,
          revoked_at: null,
        }).execute()
        return
      case 'ApiKeyRevoked':
        await db.updateTable('api_keys').set({ revoked_at: event.data.revokedAt }).where('id', '=', event.data.keyId).execute()
        return
    }
  },
}
