// Submitting an agent's DRAFT (issue 27, points 4 and 5): its amount is reserved on the agent's
// spend stream first, as a create's is. Within the limits it is submitted and funded as any draft;
// over a limit a DENY agent's is 403 agent_limit_exceeded (it stays a DRAFT), and a REQUEST_APPROVAL
// agent's waits for its owner in PENDING_AUTHORIZATION (agentApprovalStatus PENDING) until
// AGENT_APPROVAL_LIMITS.expiresAfterMs, answered 403 agent_approval_required with the denial. Any
// key's submit of an agent's draft reserves on that agent: the spend counts whoever submits.
import type { FastifyRequest } from 'fastify'
import { DomainError } from '../../domain/errors.js'
import type { OpenTransferState } from '../../domain/transfer/decider.js'
import type { AgentPrincipal } from '../../http/principal.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { assertPaymentAgent, outOfScope, releaseOnFailure, reserveForAgent } from './agentTransfers.js'
import { awaitsSourceHold, fundSubmittedTransfer } from './fundingStep.js'
import { openedTransfer, transferCommands } from './transferCommands.js'

export const AGENT_APPROVAL_LIMITS = {
  /** How long an agent's transfer over a limit waits for its owner before it is EXPIRED (and cancelled). */
  expiresAfterMs: 24 * 60 * 60 * 1000,
  noteMaxLength: 500,
} as const

/** An agent key submits only its own agent's transfers, as a PAYMENT agent, to a payee still on its allowlist. */
export function assertAgentSubmitScope(agent: AgentPrincipal, s: OpenTransferState): void {
  assertPaymentAgent(agent)
  if (s.created.agentId !== agent.agentId) throw outOfScope(`Transfer ${s.created.transferId} was not made by agent ${agent.agentId}`)
  const payee = s.created.destination.accountId ?? s.created.destination.externalAccountId
  if (payee === null || !agent.allowedDestinationAccountIds.includes(payee))
    throw outOfScope(`The payee of transfer ${s.created.transferId} is no longer one of agent ${agent.agentId}'s allowed destinations`)
}

/** Submits an agent's transfer (see the file's comment); `s` was loaded by the caller, scoped to its organization. */
export async function submitAgentTransfer(
  commands: CommandRuntime,
  request: FastifyRequest,
  s: OpenTransferState,
): Promise<OpenTransferState> {
  const { organizationId, transferId, agentId } = s.created
  const transfers = commands.bind(transferCommands)
  const now = new Date()
  const submit = (agentApprovalExpiresAt?: string) =>
    transfers.handleToState(request, {
      type: 'SubmitTransfer',
      organizationId,
      transferId,
      now: now.toISOString(),
      onBehalfOf: request.onBehalfOf,
      ...(agentApprovalExpiresAt === undefined ? {} : { agentApprovalExpiresAt }),
    })
  // Only a DRAFT reserves: a retried submit answers as it is, an illegal one is the decider's 409.
  if (s.status !== 'DRAFT' || agentId === null) return openedTransfer(await submit())
  const reservation = { organizationId, agentId, transferId }
  const reserved = await reserveForAgent(commands, request, s.created.sourceAmount, { ...reservation, now, submittedDraft: true })
  if (reserved.outcome === 'APPROVAL_REQUIRED') {
    await submit(new Date(now.getTime() + AGENT_APPROVAL_LIMITS.expiresAfterMs).toISOString())
    throw new DomainError('forbidden', 'agent_approval_required', reserved.message, [], reserved.extra)
  }
  const released = releaseOnFailure(commands, request, reservation)
  const submitted = openedTransfer(await submit().catch(released('NOT_SUBMITTED')))
  return awaitsSourceHold(submitted) ? fundSubmittedTransfer(commands, request, submitted).catch(released('FAILED')) : submitted
}
