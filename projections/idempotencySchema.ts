// The idempotency store's table (migration 0002; owned by server/idempotency/).
import type { DefaultedTimestamp, Timestamp } from './columnTypes.js'

export interface IdempotencyKeysTable {
  organization_id: string
  key: string
  fingerprint: string
  state: 'in_progress' | 'completed'
  response_status: number | null
  /** Only in records from before issue 11 (sealed in place by `data seal-existing`). */
  response_body: string | null
  /** The response body sealed with the organization's data key (server/idempotency/sealedResponse.ts). */
  response_sealed: Buffer | null
  created_at: DefaultedTimestamp
  locked_until: Timestamp
}

export interface IdempotencyDatabase {
  idempotency_keys: IdempotencyKeysTable
}
