// The read-model database as one typed interface (Kysely). Projection tables carry no foreign
// keys: a rebuild replaces them one at a time.
import type { ColumnType } from 'kysely'
import type { Environment } from '../domain/shared/environment.js'
import type { ConsumerCheckpointsTable, ConsumerFailuresTable, ConsumerSkipsTable } from '../events/consumers/tables.js'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface OrganizationsTable {
  id: string
  name: string
  created_at: Timestamp
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  environment: Environment
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

/** Endpoints per organization, kept with the endpoint rows (creation refuses past a limit). */
export interface WebhookEndpointCountsTable {
  organization_id: string
  endpoints: number
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

// ---- Webhook delivery (migration 0004; owned by webhooks/) ----------------------------------
export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'
export type WebhookAttemptTrigger = 'SCHEDULED' | 'MANUAL'

export interface WebhookDeliveryEndpointsTable {
  id: string
  organization_id: string
  disabled: boolean
  deleted: boolean
  filter_types: Json<string[]>
  /** The endpoint aggregate's state (domain/webhook-endpoint), as of the subscriber's position. */
  state: Json<Record<string, unknown>>
  updated_at: Timestamp
}

export interface WebhookMessagesTable {
  id: string
  seq: ColumnType<string, never, never>
  organization_id: string
  event_type: string
  /** The exact JSON body every attempt sends. */
  body: string
  tags: string[]
  /** Set when the message is for one endpoint only (test events). */
  target_endpoint_id: string | null
  created_at: Timestamp
}

export interface WebhookDeliveriesTable {
  message_id: string
  endpoint_id: string
  organization_id: string
  message_seq: string
  message_created_at: Timestamp
  status: WebhookDeliveryStatus
  next_attempt_at: Timestamp | null
  next_trigger: WebhookAttemptTrigger
  run_attempts: ColumnType<number, number | undefined, number>
  attempt_count: ColumnType<number, number | undefined, number>
  generation: ColumnType<number, number | undefined, number>
  lease_token: string | null
  lease_until: Timestamp | null
  leased_at: Timestamp | null
  last_attempt_at: Timestamp | null
  last_response_status: number | null
  last_error: string | null
  updated_at: Timestamp
}

export interface WebhookAttemptsTable {
  id: string
  seq: ColumnType<string, never, never>
  message_id: string
  endpoint_id: string
  url: string
  response_status: number
  response_body: string
  error: string | null
  duration_ms: number | null
  trigger: WebhookAttemptTrigger
  attempted_at: Timestamp
  next_attempt_at: Timestamp | null
}

export interface WebhookRecoveriesTable {
  id: string
  organization_id: string
  endpoint_id: string
  since: Timestamp
  until: Timestamp
  status: 'RUNNING' | 'COMPLETED'
  requeued: ColumnType<number, number | undefined, number>
  created_at: Timestamp
  completed_at: Timestamp | null
}

// ---- Customers, verification sessions, documents (migration 0003) ---------------------------
export interface CustomersTable {
  id: string
  organization_id: string
  type: 'INDIVIDUAL' | 'BUSINESS'
  status: string
  customer_name: string
  email: string | null
  country_code: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The Customer aggregate's state (domain/customer/state.ts), as of the projection's position. */
  state: Json<Record<string, unknown>>
}

export interface VerificationSessionsTable {
  id: string
  organization_id: string
  customer_id: string
  associated_entity_id: string | null
  status: string
  expires_at: Timestamp
  created_at: Timestamp
}

export interface DocumentsTable {
  id: string
  organization_id: string
  customer_id: string | null
  file_name: string
  content_type: string
  size_bytes: number
  sha256: string
  created_at: Timestamp
}

export interface DocumentContentsTable {
  document_id: string
  organization_id: string
  content: Buffer
  size_bytes: number
  sha256: string
  created_at: ColumnType<Date, Date | string | undefined, Date | string>
}

// ---- The consumer runtime's tables (migrations 0005 and 0007; owned by events/consumers/) ------
export type { ConsumerCheckpointsTable, ConsumerFailuresTable, ConsumerSkipsTable } from '../events/consumers/tables.js'

export interface ReadDatabase {
  consumer_failures: ConsumerFailuresTable
  consumer_skips: ConsumerSkipsTable
  customers: CustomersTable
  verification_sessions: VerificationSessionsTable
  documents: DocumentsTable
  document_contents: DocumentContentsTable
  webhook_delivery_endpoints: WebhookDeliveryEndpointsTable
  webhook_messages: WebhookMessagesTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  webhook_recoveries: WebhookRecoveriesTable
  consumer_checkpoints: ConsumerCheckpointsTable
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_endpoint_counts: WebhookEndpointCountsTable
  idempotency_keys: IdempotencyKeysTable
}
