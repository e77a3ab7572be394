// The transfer drafts' read model (projections/transferDrafts.ts).
import type { OpenTransferDraft } from '../domain/transfer-draft/decider.js'
import type { Json, Timestamp } from './columnTypes.js'

/** One row per transfer draft: its state (the aggregate's own), the approval record made from it at read time. */
export interface TransferDraftsTable {
  id: string
  organization_id: string
  customer_id: string
  status: string
  state: Json<OpenTransferDraft>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface TransferDraftDatabase {
  transfer_drafts: TransferDraftsTable
}
