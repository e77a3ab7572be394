// Projects organizations (with their agents switch) and their API keys (hashes only), for authentication. The aggregate's
// state keeps only the active key ids, so the rows come from the events themselves.
import type { Insertable, Updateable } from 'kysely'
import type { OrganizationEvent } from '../domain/organization/events.js'
import { parsedEvent } from './parsedEvent.js'
import type { ApiKeysTable, OrganizationsTable } from './schema.js'
import type { Projector } from './runtime/projector.js'

type EventOf<T extends OrganizationEvent['type']> = Extract<OrganizationEvent, { type: T }>['data']

// ---- Evolve: event to rows (pure) -------------------------------------------------------------
const organizationRow = (d: EventOf<'OrganizationCreated'>): Insertable<OrganizationsTable> => ({
  id: d.organizationId,
  name: d.name,
  created_at: d.createdAt,
})

const apiKeyRow = (d: EventOf<'ApiKeyCreated'>): Insertable<ApiKeysTable> => ({
  id: d.keyId,
  organization_id: d.organizationId,
  environment: d.environment,
  key_hash: d.keyHash,
  last4: d.last4,
  created_at: d.createdAt,
  revoked_at: null,
  // A key created before roles existed has none: FULL, as it always was.
  role: d.role ?? 'FULL',
})

const revokedColumns = (d: EventOf<'ApiKeyRevoked'>): Updateable<ApiKeysTable> => ({ revoked_at: d.revokedAt })

// ---- Write ------------------------------------------------------------------------------------
export const organizationsProjector: Projector = {
  name: 'organizations',
  tables: ['organizations', 'api_keys'],
  handles: new Set(['OrganizationCreated', 'ApiKeyCreated', 'ApiKeyRevoked', 'AgentsFeatureSet']),
  async apply(db, recorded) {
    const event = parsedEvent<OrganizationEvent>(recorded)
    switch (event.type) {
      case 'OrganizationCreated':
        await db.insertInto('organizations').values(organizationRow(event.data)).execute()
        return
      case 'ApiKeyCreated':
        await db.insertInto('api_keys').values(apiKeyRow(event.data)).execute()
        return
      case 'ApiKeyRevoked':
        await db.updateTable('api_keys').set(revokedColumns(event.data)).where('id', '=', event.data.keyId).execute()
        return
      case 'AgentsFeatureSet':
        await db
          .updateTable('organizations')
          .set({ agents_enabled: event.data.enabled })
          .where('id', '=', event.data.organizationId)
          .execute()
        return
    }
  },
}
