// The read-model database as one typed interface (Kysely). Projection tables carry no foreign
// keys: a rebuild replaces them one at a time.
import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface ProjectionCheckpointsTable {
  name: string
  position: string
  updated_at: Timestamp
}

export interface OrganizationsTable {
  id: string
  name: string
  created_at: Timestamp
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  environment: 'sandbox' | 'production'
  key_hash: string
  last4: string
  created_at: Timestamp
  revoked_at: Timestamp | null
}

export type StoredSecret = { secret: string; createdAt: string; expiresAt: string | null }

export interface WebhookEndpointsTable {
  id: string
  organization_id: string
  url: string
  description: string
  filter_types: Json<string[]>
  metadata: Json<Record<string, unknown>>
  disabled: boolean
  secrets: Json<StoredSecret[]>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface IdempotencyKeysTable {
  organization_id: string
  key: string
  fingerprint: string
  state: 'in_progress' | 'completed'
  response_status: number | null
  response_body: string | null
  created_at: ColumnType<Date, Date | string | undefined, Date | string>
  locked_until: Timestamp
}

export interface ReadDatabase {
  projection_checkpoints: ProjectionCheckpointsTable
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  webhook_endpoints: WebhookEndpointsTable
  idempotency_keys: IdempotencyKeysTable
}
