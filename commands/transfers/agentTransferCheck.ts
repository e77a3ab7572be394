// What an agent's create would do, changing nothing (the MCP check tool, issue 27 point 7): the
// same steps as POST /v1/transfers with an agent key (createTransferRoutes.ts), read-only. The scope
// check, the facts and the plan are the create's own functions; the limits are decided by the same
// spendDenial the agent's spend stream decides a reservation with, on that stream's current state.
// Nothing is reserved, recorded or appended: a denial here is a prediction, not an AgentSpendDenied,
// so a check never sends agent.limit_reached. A concurrent create can still take the room first:
// the answer is what a create would do now, not a reservation.
import { agentSpendDecider, usageNow } from '../../domain/agent-spend/decider.js'
import { inLimitsCurrency } from '../../domain/agent/spendConversion.js'
import { denialBody, denialHint, spendDenial } from '../../domain/agent/spendWindows.js'
import { type AgentDenial, DomainError, type ErrorDetail } from '../../domain/errors.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import type { CreateTransferBody } from '../../domain/transfer/createTransferBody.js'
import { planTransfer } from '../../domain/transfer/planTransfer.js'
import { streams } from '../../events/streams.js'
import { toApiError } from '../../http/domainErrors.js'
import type { AgentPrincipal } from '../../http/principal.js'
import { loadOrgAgent } from '../agents/agentFacts.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { assertAgentTransferScope } from './agentTransfers.js'
import { drawPlanEntropy, loadTransferFacts } from './newTransfer.js'

/** The REST answer the create would give instead of 201: its status and the error body's fields. */
export type CheckError = { statusCode: number; code?: string | undefined; message: string; details?: ErrorDetail[] | undefined }

export type AgentTransferCheck = {
  wouldSucceed: boolean
  /** The limit a submitted create would be denied by (403 agent_limit_exceeded), in the spec's denial body. */
  denial?: AgentDenial
  hint?: string
  /** Any other refusal of the create (scope 403, unknown account 404, plan or funds 422). */
  error?: CheckError
}

export type CheckInput = { organizationId: string; agent: AgentPrincipal; body: CreateTransferBody; now: Date }

/** The create's verdict without its effects; never throws a refusal (only a failure of the service itself). */
export async function checkAgentTransfer(commands: Commands, environment: Environment, input: CheckInput): Promise<AgentTransferCheck> {
  try {
    return await verdict(commands, environment, input)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const api = toApiError(error)
    return {
      wouldSucceed: false,
      ...(error.extra?.denial ? { denial: error.extra.denial } : {}),
      ...(error.extra?.hint === undefined ? {} : { hint: error.extra.hint }),
      error: { statusCode: api.statusCode, code: api.code, message: api.message, details: api.details },
    }
  }
}

async function verdict(commands: Commands, environment: Environment, { organizationId, agent, body, now }: CheckInput) {
  assertAgentTransferScope(agent, body)
  // The agent key's requests are scoped to its customer (server/auth/agentScope.ts): the same scope here.
  const facts = await loadTransferFacts({ onBehalfOf: agent.customerId }, commands, organizationId, body)
  // A throwaway id: the plan needs one, and nothing planned here is ever stored.
  const planned = planTransfer({
    body,
    facts,
    environment,
    entropy: drawPlanEntropy(),
    agentId: agent.agentId,
    transferId: newId('tfr'),
    now,
  })
  if (body.confirm === false) return { wouldSucceed: true, hint: 'A DRAFT reserves nothing: the limits are checked when it is submitted' }
  const { limits } = (await loadOrgAgent(commands, organizationId, agent.agentId)).settings
  const amount = { currency: planned.sourceAmount.currency, amountMinor: BigInt(planned.sourceAmount.amountMinor) }
  const counted = inLimitsCurrency(amount, limits.currency)
  if (!counted)
    return {
      wouldSucceed: false,
      hint: `Pay in ${limits.currency}, or use an agent whose limits are in ${amount.currency}`,
      error: {
        statusCode: 403,
        code: 'agent_limit_exceeded',
        message: `No rate from ${amount.currency} to ${limits.currency}, the agent's limits currency: the transfer cannot be counted`,
      },
    }
  const { state } = await commands.load(agentSpendDecider, streams.agentSpend(agent.agentId))
  // The decider's own rule on the stream's current windows (domain/agent-spend/decider.ts, ReserveSpend), decided nowhere.
  const denied = spendDenial(limits, usageNow(state, now), counted.amountMinor, now)
  if (!denied) return { wouldSucceed: true }
  const denial = denialBody(limits.currency, denied)
  return { wouldSucceed: false, denial, hint: denialHint(denial) }
}
