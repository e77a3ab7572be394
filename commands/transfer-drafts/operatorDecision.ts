// An operator's decision on a transfer draft (`npm run cli -- drafts approve|reject <tdraft_>`): the
// way a production draft leaves PENDING_APPROVAL (no sandbox engine screens it there). A draft still
// PENDING_APPROVAL starts its screening in the same decision; a decided one is 409 naming both states.
import { notFound } from '../../domain/errors.js'
import { newId } from '../../domain/shared/ids.js'
import { type OpenTransferDraft, transferDraftDecider } from '../../domain/transfer-draft/decider.js'
import type { ScreeningOutcome } from '../../domain/transfer-draft/screening.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { transferDraftStreamOf } from './draftCommands.js'

export async function decideDraftAsOperator(
  commands: Commands,
  decision: { draftId: string; outcome: ScreeningOutcome; actor: string; now: Date },
): Promise<OpenTransferDraft> {
  const stream = transferDraftStreamOf(decision.draftId)
  const { state: found } = await commands.load(transferDraftDecider, stream)
  if (found.status === 'none') throw notFound('Transfer draft', decision.draftId)
  const { organizationId } = found.draft
  const result = await commands.handle(
    transferDraftDecider,
    stream,
    {
      type: 'CompleteScreening',
      organizationId,
      draftId: decision.draftId,
      mode: 'explicit',
      decision: { by: 'OPERATOR', outcome: decision.outcome },
      now: decision.now.toISOString(),
    },
    { organizationId, requestId: newId('req'), actor: decision.actor },
  )
  if (result.state.status === 'none') throw new Error('a decided draft keeps its state')
  return result.state
}
