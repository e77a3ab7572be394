// The transfers read model's table (projections/transfers.ts owns it; migration 0018).
import type { OpenTransferState } from '../domain/transfer/state.js'
import type { TransferResource } from '../domain/transfer/resource.js'
import type { TransferFlow } from '../domain/transfer/route.js'
import type { TransferStatus } from '../domain/transfer/statuses.js'
import type { Json, Timestamp } from './columnTypes.js'

export interface TransfersTable {
  id: string
  organization_id: string
  /** The source customer (named so: sealedColumns.ts keys the sealed state by this column). */
  customer_id: string
  /** The customer the destination account belongs to (the either-side list filter). */
  destination_customer_id: string | null
  counterparty_id: string | null
  agent_id: string | null
  /** PENDING, APPROVED or DECLINED once agents exist; null until then. */
  agent_approval_status: string | null
  client_reference_id: string | null
  flow: TransferFlow
  status: TransferStatus
  source_account_id: string | null
  destination_account_id: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The aggregate's state, the remitter's name and account number sealed (sealedColumns.ts); the resource is made from it. */
  state: Json<OpenTransferState>
  /** The resource as reads show it (the remitter's name sealed), for lists to join as it is; null for rows from before 0019. */
  resource: Json<TransferResource> | null
}

export interface TransferDatabase {
  transfers: TransfersTable
}
