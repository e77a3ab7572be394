// A transfer made from a transfer draft (`draftId` on POST /v1/transfers): the draft is read with the
// other facts (404 for one the organization does not have), checked before the transfer is planned
// (409 unless APPROVED or when another transfer used it, 422 transfer_draft_mismatch unless the body
// less confirm, quoteId and draftId hashes to its draftHash and pays its destinationAccountIds), and
// used by the transfer's id just before the transfer is created: one draft, one transfer. A draft
// used by a transfer that was never created (a crash between the two appends) is taken up again by
// the next create naming it, under the id it was used by: the retry resumes, it is not refused.
import type { FastifyRequest } from 'fastify'
import { type OpenTransferDraft, assertUsable } from '../../domain/transfer-draft/decider.js'
import { draftPartOf } from '../../domain/transfer-draft/draftBody.js'
import { draftHashOf } from '../../domain/transfer-draft/draftHash.js'
import type { CreateTransferBody } from '../../domain/transfer/createTransferBody.js'
import { transferDecider } from '../../domain/transfer/decider.js'
import { streams } from '../../events/streams.js'
import { destinationAccountIdOf } from '../../domain/transfer/planTransfer.js'
import type { CommandRuntime, Commands } from '../runtime/commandRuntime.js'
import { transferDraftBinding } from '../transfer-drafts/draftCommands.js'
import { loadDraft } from '../transfer-drafts/draftFacts.js'

/** The draft a create names, with what the create binds of it. */
export type DraftUse = { draft: OpenTransferDraft; transferId: string; draftHash: string; destinationAccountIds: string[] }

/**
 * The draft `draftId` names, checked usable by this transfer (it is used again, under its lock, when
 * the transfer is created). `transferId` is the fresh id, or the id the draft was used by when that
 * transfer was never created.
 */
export async function loadUsableDraft(
  commands: Commands,
  request: FastifyRequest,
  organizationId: string,
  draftId: string,
  body: CreateTransferBody,
  freshTransferId: string,
): Promise<DraftUse> {
  const draft = await loadDraft(commands, organizationId, draftId, request.onBehalfOf)
  const usedBy = draft.transferId
  const orphaned = usedBy !== null && (await commands.load(transferDecider, streams.transfer(usedBy))).state.status === 'none'
  const transferId = orphaned ? usedBy : freshTransferId
  const payee = destinationAccountIdOf(body)
  const use = { draft, transferId, draftHash: draftHashOf(draftPartOf(body)), destinationAccountIds: payee === undefined ? [] : [payee] }
  assertUsable(draft, use)
  return use
}

/** Binds the draft to the transfer about to be created (409 when another transfer took it meanwhile). */
export async function useDraft(runtime: CommandRuntime, request: FastifyRequest, use: DraftUse, now: Date): Promise<void> {
  const { draftId, organizationId } = use.draft.draft
  await runtime.bind(transferDraftBinding).handleToState(request, {
    type: 'UseDraft',
    organizationId,
    draftId,
    transferId: use.transferId,
    draftHash: use.draftHash,
    destinationAccountIds: use.destinationAccountIds,
    now: now.toISOString(),
  })
}
