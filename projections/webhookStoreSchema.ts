// The webhook store's tables (migrations 0004 and 0006; owned by webhooks/): the subscriber's
// endpoint snapshots, messages, deliveries, attempts and recoveries (its checkpoint is the consumer
// runtime's).
import type { ColumnType } from 'kysely'
import type { WebhookEndpointState } from '../domain/webhook-endpoint/decider.js'
import type { Json, Timestamp } from './columnTypes.js'

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'
export type WebhookAttemptTrigger = 'SCHEDULED' | 'MANUAL'
type Counter = ColumnType<number, number | undefined, number>
/** A bigserial the database assigns. */
type Sequence = ColumnType<string, never, never>

export interface WebhookDeliveryEndpointsTable {
  id: string
  organization_id: string
  disabled: boolean
  deleted: boolean
  filter_types: Json<string[]>
  /** The endpoint aggregate's state (domain/webhook-endpoint), as of the subscriber's position. */
  state: Json<WebhookEndpointState>
  updated_at: Timestamp
}

export interface WebhookMessagesTable {
  id: string
  seq: Sequence
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
  run_attempts: Counter
  attempt_count: Counter
  generation: Counter
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
  seq: Sequence
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
  requeued: Counter
  created_at: Timestamp
  completed_at: Timestamp | null
}

export interface WebhookStoreDatabase {
  webhook_delivery_endpoints: WebhookDeliveryEndpointsTable
  webhook_messages: WebhookMessagesTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  webhook_recoveries: WebhookRecoveriesTable
}
