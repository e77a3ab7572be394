// A transfer draft as a command reads it: the organization's own (404 for another's or an unknown
// id, as if it did not exist), and the sending customer's under X-On-Behalf-Of.
import { notFound } from '../../domain/errors.js'
import { type OpenTransferDraft, transferDraftDecider } from '../../domain/transfer-draft/decider.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { transferDraftStreamOf } from './draftCommands.js'

const DRAFT_ID = /^tdraft_[0-9a-z]{26}$/

export async function loadDraft(
  commands: Commands,
  organizationId: string,
  draftId: string,
  onBehalfOf?: string,
): Promise<OpenTransferDraft> {
  if (!DRAFT_ID.test(draftId)) throw notFound('Transfer draft', draftId)
  const { state } = await commands.load(transferDraftDecider, transferDraftStreamOf(draftId))
  if (state.status === 'none' || state.draft.organizationId !== organizationId) throw notFound('Transfer draft', draftId)
  if (onBehalfOf !== undefined && state.draft.customerId !== onBehalfOf) throw notFound('Transfer draft', draftId)
  return state
}
