// Sandbox: POST /v1/sandbox/transfer-drafts/{draftId}/advance runs now the screening step a draft
// waits for on the sandbox clock (commands/transfer-drafts/draftTimers.ts): PENDING_APPROVAL to
// SCREENING, SCREENING to its fixed outcome (APPROVED, or REJECTED for the magic amount). 409
// transfer_draft_not_advanceable once APPROVED or REJECTED; 404 for an unknown or another
// organization's draft; 403 in production, where an operator decides. The timer then finds nothing to do.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { conflict } from '../../domain/errors.js'
import { toTransferDraftResource, transferDraftResource } from '../../domain/transfer-draft/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { idParam } from '../../http/idParam.js'
import { principalOf } from '../../http/principal.js'
import { transferDraftBinding } from '../transfer-drafts/draftCommands.js'
import { loadDraft } from '../transfer-drafts/draftFacts.js'
import { transferDraftStep } from '../transfer-drafts/draftTimerCommands.js'
import type { TransferDraftRouteDeps } from '../transfer-drafts/registerDraftRoutes.js'
import { sandboxOnly } from './sandboxOnly.js'

export const sandboxTransferDraftRoutes: FastifyPluginAsyncZod<TransferDraftRouteDeps> = async (app, deps) => {
  const drafts = deps.commands.bind(transferDraftBinding)
  sandboxOnly(app, deps.environment)

  app.post(
    '/sandbox/transfer-drafts/:draftId/advance',
    {
      schema: {
        operationId: 'advanceTransferDraft',
        tags: ['Sandbox'],
        summary: 'Advance a transfer draft’s screening one step',
        description:
          'Runs now the screening step the draft waits for: PENDING_APPROVAL to SCREENING, then SCREENING to APPROVED (or REJECTED ' +
          'for the sandbox’s reject amount). 409 transfer_draft_not_advanceable once APPROVED or REJECTED.',
        headers: writeHeaders,
        params: idParam('draftId', 'tdraft_', 'Transfer draft'),
        response: { 200: transferDraftResource, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const s = await loadDraft(deps.commands, organizationId, request.params.draftId, request.onBehalfOf)
      const { draftId } = s.draft
      if (s.status !== 'PENDING_APPROVAL' && s.status !== 'SCREENING')
        throw conflict('transfer_draft_not_advanceable', `Transfer draft ${draftId} is ${s.status} with no step waiting`)
      const type = s.status === 'PENDING_APPROVAL' ? 'StartScreening' : 'CompleteScreening'
      const state = await drafts.handleToState(request, transferDraftStep({ type, organizationId, draftId }, deps.clock(), 'explicit'))
      if (state.status === 'none') throw new Error('a draft keeps its state')
      return toTransferDraftResource(state)
    },
  )
}
