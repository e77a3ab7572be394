// The idempotency store's table (migration 0002; owned by server/idempotency/).
import type { ColumnType } from 'kysely'
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
  /** Whose data key sealed it: the customer the response is about, or null for the organization's. */
  response_subject: ColumnType<string | null, string | null | undefined, string | null>
  created_at: DefaultedTimestamp
  locked_until: Timestamp
}

export interface IdempotencyDatabase {
  idempotency_keys: IdempotencyKeysTable
}
