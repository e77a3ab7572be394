// Transfers made with an agent key (issue 27, point 4). The body must stay within the agent's scope
// (its customer, its source account, a payee its owner allowed; never a chain address or a quote),
// and a PAYMENT_OPERATIONS agent makes none. The amount, in the limits' currency, is reserved on the
// agent's spend stream before the transfer is created: over a limit the answer is 403
// agent_limit_exceeded with the spec's denial body, and nothing is written but the recorded denial. A
// create that fails after its reservation releases it at once.
import type { FastifyRequest } from 'fastify'
import { agentSpendDecider } from '../../domain/agent-spend/decider.js'
import { calendarWindowsAt, denialBody, denialHint } from '../../domain/agent/spendWindows.js'
import { inLimitsCurrency } from '../../domain/agent/spendConversion.js'
import { DomainError, type ErrorDetail, type ErrorExtra, conflict } from '../../domain/errors.js'
import type { CreateTransferBody } from '../../domain/transfer/createTransferBody.js'
import type { NewTransfer } from '../../domain/transfer/planTransfer.js'
import { streams } from '../../events/streams.js'
import type { AgentPrincipal } from '../../http/principal.js'
import { loadOrgAgent } from '../agents/agentFacts.js'
import type { Commands } from '../runtime/commandRuntime.js'
import { originFrom } from '../runtime/requestOrigin.js'

export const outOfScope = (message: string, details: ErrorDetail[] = []) =>
  new DomainError('forbidden', 'agent_key_not_allowed', message, details)

/** Only a PAYMENT agent creates or submits transfers (spec: Agent, mcpRole). */
export function assertPaymentAgent(agent: AgentPrincipal): void {
  if (agent.mcpRole !== 'PAYMENT')
    throw outOfScope(`Agent ${agent.agentId} is a PAYMENT_OPERATIONS agent: it cannot create or submit transfers`)
}

/** 403 agent_key_not_allowed naming each part of the body outside the agent's scope. */
export function assertAgentTransferScope(agent: AgentPrincipal, body: CreateTransferBody): void {
  assertPaymentAgent(agent)
  const details: ErrorDetail[] = []
  const payee = body.destination.accountId ?? body.destination.externalAccountId
  if (body.source.accountId !== agent.sourceAccountId)
    details.push({ field: 'body.source.accountId', message: `must be the agent's source account ${agent.sourceAccountId}` })
  if (body.source.paymentRail !== undefined && body.source.paymentRail !== 'BALANCE')
    details.push({ field: 'body.source.paymentRail', message: 'an agent pays from its balance account (BALANCE or omitted)' })
  if (body.sourceCustomerId !== undefined && body.sourceCustomerId !== agent.customerId)
    details.push({ field: 'body.sourceCustomerId', message: `must be the agent's customer ${agent.customerId}` })
  if (payee === undefined || !agent.allowedDestinationAccountIds.includes(payee))
    details.push({ field: 'body.destination.accountId', message: 'must be one of the agent’s allowedDestinationAccountIds' })
  if (body.destination.toAddress !== undefined)
    details.push({ field: 'body.destination.toAddress', message: 'an agent pays accounts only' })
  if (body.quoteId !== undefined) details.push({ field: 'body.quoteId', message: 'an agent does not take FX quotes' })
  if (details.length > 0) throw outOfScope(`The transfer is outside agent ${agent.agentId}'s authority`, details)
}

type Reservation = { organizationId: string; agentId: string; transferId: string; now: Date; submittedDraft: boolean }

/** Reserved, or (a REQUEST_APPROVAL agent's submitted draft over a limit) waiting for the owner: the denial and hint to answer. */
export type ReserveOutcome = { outcome: 'RESERVED' } | { outcome: 'APPROVAL_REQUIRED'; message: string; extra: ErrorExtra }

/**
 * Reserves the transfer's source amount on the agent's spend stream: 403 agent_limit_exceeded when a
 * limit denies it, APPROVAL_REQUIRED when its owner may approve it instead.
 */
export async function reserveForAgent(
  commands: Commands,
  request: FastifyRequest,
  sourceAmount: NewTransfer['sourceAmount'],
  r: Reservation,
): Promise<ReserveOutcome> {
  const agent = await loadOrgAgent(commands, r.organizationId, r.agentId)
  const { limits, overLimitAction } = agent.settings
  const amount = { currency: sourceAmount.currency, amountMinor: BigInt(sourceAmount.amountMinor) }
  const counted = inLimitsCurrency(amount, limits.currency)
  if (!counted)
    throw new DomainError(
      'forbidden',
      'agent_limit_exceeded',
      `No rate from ${amount.currency} to ${limits.currency}, the agent's limits currency: the transfer cannot be counted, so it is denied`,
      [],
      { hint: `Pay in ${limits.currency}, or use an agent whose limits are in ${amount.currency}` },
    )
  const result = await commands.handle(
    agentSpendDecider,
    streams.agentSpend(r.agentId),
    {
      type: 'ReserveSpend',
      agentId: r.agentId,
      organizationId: r.organizationId,
      transferId: r.transferId,
      now: r.now.toISOString(),
      limits,
      overLimitAction,
      submittedDraft: r.submittedDraft,
      amountMinor: counted.amountMinor.toString(),
      conversion: counted.conversion,
    },
    originFrom(request),
  )
  const denied = result.events.find((e) => e.type === 'AgentSpendDenied')
  if (!denied) return { outcome: 'RESERVED' }
  const data = denied.data as {
    window: 'PER_TRANSACTION' | 'PER_DAY' | 'PER_MONTH'
    limitMinor: string
    usedMinor: string | null
    outcome: 'DENIED' | 'APPROVAL_REQUIRED'
  }
  const used = data.usedMinor === null ? null : BigInt(data.usedMinor)
  const limit = BigInt(data.limitMinor)
  const denial = denialBody(limits.currency, {
    window: data.window,
    limitMinor: limit,
    usedMinor: used,
    remainingMinor: used === null ? null : used >= limit ? 0n : limit - used,
    attemptedMinor: counted.amountMinor,
    resetsAt: resetsAtOf(data.window, r.now),
  })
  if (data.outcome === 'APPROVAL_REQUIRED')
    return {
      outcome: 'APPROVAL_REQUIRED',
      message: `${denial.message}: transfer ${r.transferId} waits for its owner's approval`,
      extra: {
        denial,
        hint: `Poll GET /v1/transfers/${r.transferId} until agentApprovalStatus leaves PENDING; the owner approves or declines it`,
      },
    }
  throw new DomainError('forbidden', 'agent_limit_exceeded', denial.message, [], { denial, hint: denialHint(denial) })
}

function resetsAtOf(window: 'PER_TRANSACTION' | 'PER_DAY' | 'PER_MONTH', now: Date): string | null {
  const w = calendarWindowsAt(now)
  return { PER_TRANSACTION: null, PER_DAY: w.dayResetsAt, PER_MONTH: w.monthResetsAt }[window]
}

/** Frees a reservation (a create that failed after it, a cancelled or failed transfer); nothing when there is none. */
export async function releaseForAgent(
  commands: Commands,
  request: FastifyRequest,
  r: { organizationId: string; agentId: string; transferId: string; reason: string },
): Promise<void> {
  await commands.handle(
    agentSpendDecider,
    streams.agentSpend(r.agentId),
    { type: 'ReleaseSpend', ...r, now: new Date().toISOString() },
    originFrom(request),
  )
}

/** The owner approved a transfer over a limit: its amount is reserved without the check (it counts in the windows all the same). */
export async function reserveApprovedForAgent(
  commands: Commands,
  request: FastifyRequest,
  sourceAmount: NewTransfer['sourceAmount'],
  r: { organizationId: string; agentId: string; transferId: string; now: Date },
): Promise<void> {
  const agent = await loadOrgAgent(commands, r.organizationId, r.agentId)
  const currency = agent.settings.limits.currency
  const counted = inLimitsCurrency({ currency: sourceAmount.currency, amountMinor: BigInt(sourceAmount.amountMinor) }, currency)
  // The approval was asked for a counted amount; a rate gone since cannot count it now.
  if (!counted) throw conflict('agent_spend_not_countable', `No rate from ${sourceAmount.currency} to ${currency} now: approve again later`)
  await commands.handle(
    agentSpendDecider,
    streams.agentSpend(r.agentId),
    {
      type: 'ReserveApprovedSpend',
      agentId: r.agentId,
      organizationId: r.organizationId,
      transferId: r.transferId,
      now: r.now.toISOString(),
      currency,
      amountMinor: counted.amountMinor.toString(),
      conversion: counted.conversion,
    },
    originFrom(request),
  )
}

/**
 * What a step after a reservation runs its failure through: the reservation is freed at once (the
 * workflow release_agent_spend would free it too, later), then the failure goes on to the caller.
 */
export function releaseOnFailure(
  commands: Commands,
  request: FastifyRequest,
  r: { organizationId: string; agentId: string; transferId: string } | undefined,
) {
  return (reason: string) =>
    async (error: unknown): Promise<never> => {
      if (r) await releaseForAgent(commands, request, { ...r, reason })
      throw error
    }
}
