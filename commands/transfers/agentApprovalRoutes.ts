// POST /v1/transfers/{id}/agent-approval (issue 27, point 5): the owner's answer to an agent's
// transfer waiting over a limit. APPROVE reserves its amount without the check (it counts in the
// windows all the same) and lets it proceed (PENDING, then funded as any submitted transfer);
// DECLINE cancels it. A non-agent key only: agent keys never reach it (server/auth/agentScope.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { toTransferResource, transferResourceSchema } from '../../domain/transfer/resource.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { principalOf } from '../../http/principal.js'
import { AGENT_APPROVAL_LIMITS } from './agentSubmit.js'
import { releaseOnFailure, reserveApprovedForAgent } from './agentTransfers.js'
import { TRANSFER_TAGS } from './createTransferRoutes.js'
import type { TransferRouteDeps } from './deps.js'
import { awaitsSourceHold, fundSubmittedTransfer } from './fundingStep.js'
import { openedTransfer, transferCommands } from './transferCommands.js'
import { loadTransfer } from './transferFacts.js'
import { transferParams } from './transferLifecycleRoutes.js'

const agentApprovalBody = z
  .object({
    decision: z.enum(['APPROVE', 'DECLINE']).describe('APPROVE lets the transfer proceed; DECLINE cancels it'),
    note: z.string().max(AGENT_APPROVAL_LIMITS.noteMaxLength).optional().describe('Recorded with the decision and shown on the transfer'),
  })
  .strict()

const DECISIONS = { APPROVE: 'APPROVED', DECLINE: 'DECLINED' } as const

export const agentApprovalRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  const transfers = deps.commands.bind(transferCommands)
  app.post(
    '/transfers/:id/agent-approval',
    {
      schema: {
        operationId: 'decideAgentTransferApproval',
        tags: TRANSFER_TAGS,
        summary: 'Approve or decline an agent transfer over a limit',
        description:
          'Answers an agent’s transfer waiting in PENDING_AUTHORIZATION with agentApprovalStatus PENDING (its agent is ' +
          'REQUEST_APPROVAL and the submitted draft went over a limit). APPROVE: its amount is reserved on the agent’s limits ' +
          'without the check, and it proceeds (PENDING, then funded from its balance: 422 insufficient_funds fails it). ' +
          'DECLINE: it is CANCELLED. The decision, the deciding key and the note are recorded (agentApproval on the transfer, ' +
          'transfer.updated). The same decision again answers the transfer unchanged; another is 409 ' +
          'agent_approval_already_decided (EXPIRED after 24 hours without an answer); 409 transfer_not_awaiting_agent_approval ' +
          'for a transfer that waits for none. Not for agent keys (403 agent_key_not_allowed).',
        headers: writeHeaders,
        params: transferParams,
        body: agentApprovalBody,
        response: { 200: transferResourceSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId, keyId } = principalOf(request)
      const transferId = request.params.id
      const now = new Date()
      const s = await loadTransfer(deps.commands, organizationId, transferId, request.onBehalfOf)
      const decision = DECISIONS[request.body.decision]
      const decide = () =>
        transfers.handleToState(request, {
          type: 'DecideAgentApproval',
          organizationId,
          transferId,
          now: now.toISOString(),
          onBehalfOf: request.onBehalfOf,
          decision,
          decidedBy: keyId,
          note: request.body.note ?? null,
        })
      const agentId = s.created.agentId
      // Reserved before the transfer moves, only while it waits: a decision refused after it frees it again.
      if (decision !== 'APPROVED' || agentId === null || s.agentApproval?.status !== 'PENDING')
        return toTransferResource(openedTransfer(await decide()))
      const reservation = { organizationId, agentId, transferId }
      await reserveApprovedForAgent(deps.commands, request, s.created.sourceAmount, { ...reservation, now })
      const released = releaseOnFailure(deps.commands, request, reservation)
      const approved = openedTransfer(await decide().catch(released('NOT_APPROVED')))
      return toTransferResource(
        awaitsSourceHold(approved) ? await fundSubmittedTransfer(deps.commands, request, approved).catch(released('FAILED')) : approved,
      )
    },
  )
}
