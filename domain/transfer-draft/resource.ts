// A transfer draft's approval record as the API shows it (GET /v1/transfer-drafts/{draftId}, POST
// /v1/transfer-drafts): the spec's fields, and the transfer made from it once used.
import { z } from 'zod'
import type { OpenTransferDraft } from './decider.js'
import { transferDraftStatusSchema } from './statuses.js'

export const transferDraftResource = z
  .object({
    id: z.string().describe('Approval record id, prefix tda_'),
    draftId: z.string().describe('The registered draft, prefix tdraft_'),
    customerId: z.string().describe('The sending customer'),
    draftHash: z.string().describe('sha256: + hex SHA-256 of the RFC 8785 canonical JSON of the registered transfer body'),
    destinationAccountIds: z.array(z.string()).describe('Payee account ids bound at registration and screened at approval'),
    status: transferDraftStatusSchema.describe('PENDING_APPROVAL, then SCREENING, then APPROVED or REJECTED (final)'),
    transferId: z.string().nullable().describe('The one transfer created from the draft (POST /v1/transfers with draftId), once used'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('Transfer draft approval record')
export type TransferDraftResource = z.infer<typeof transferDraftResource>

export function toTransferDraftResource(s: OpenTransferDraft): TransferDraftResource {
  const d = s.draft
  return {
    id: d.approvalId,
    draftId: d.draftId,
    customerId: d.customerId,
    draftHash: d.draftHash,
    destinationAccountIds: d.destinationAccountIds,
    status: s.status,
    transferId: s.transferId,
    createdAt: d.createdAt,
    updatedAt: s.updatedAt,
  }
}
