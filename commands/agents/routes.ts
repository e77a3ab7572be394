// Write routes of agents: create, change, pause, resume, revoke, and issue or revoke their keys. The
// accounts an agent would use and the organization's agents switch are read first (404 for another
// organization's account); the decider checks them (domain/agent/agentAccounts.ts). An agent key
// never reaches these routes (server/auth/agentScope.ts): an agent never changes its own authority.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { createAgentBody, updateAgentBody } from '../../domain/agent/agentBody.js'
import { AGENT_KEY_LIMITS } from '../../domain/agent/decider.js'
import { agentKeyResource, agentResource, issuedAgentKeyResource, toAgentKeyResource } from '../../domain/agent/resource.js'
import { invalid, notFound } from '../../domain/errors.js'
import { generateAgentKey, hashApiKey } from '../../domain/organization/apiKeys.js'
import type { Environment } from '../../domain/shared/environment.js'
import { newId } from '../../domain/shared/ids.js'
import { errorResponses } from '../../http/errorBody.js'
import { writeHeaders } from '../../http/headers.js'
import { AGENT_TAGS, agentKeyParams, agentParams } from '../../http/agentParams.js'
import { principalOf } from '../../http/principal.js'
import { assertCustomerInScope } from '../customers/scope.js'
import type { CommandRuntime } from '../runtime/commandRuntime.js'
import { loadSender } from '../transfers/transferFacts.js'
import { agentCommands, openedAgent } from './agentCommands.js'
import { agentsEnabled, loadAccountFact, loadAccountFacts, loadOrgAgent } from './agentFacts.js'

export type AgentRouteDeps = { commands: CommandRuntime; environment: Environment; clock: () => Date }

const reasonBody = z
  .object({ reason: z.string().max(500).optional().describe('Why, kept in the agent’s history and sent with the webhook') })
  .strict()
  .nullish()

const issueKeyBody = z
  .object({
    expiresAt: z.iso
      .datetime()
      .optional()
      .describe(`When the key stops working (ISO 8601, in the future, within ${AGENT_KEY_LIMITS.maxLifetimeDays} days); omitted: never`),
  })
  .strict()
  .nullish()

function checkedExpiry(expiresAt: string | undefined, now: Date): string | null {
  if (expiresAt === undefined) return null
  const at = new Date(expiresAt)
  const latest = now.getTime() + AGENT_KEY_LIMITS.maxLifetimeDays * 86_400_000
  if (!(at.getTime() > now.getTime() && at.getTime() <= latest))
    throw invalid('invalid_expiry', `expiresAt must be in the future and within ${AGENT_KEY_LIMITS.maxLifetimeDays} days`, [
      { field: 'body.expiresAt', message: `between now and ${new Date(latest).toISOString()}` },
    ])
  return at.toISOString()
}

export const agentWriteRoutes: FastifyPluginAsyncZod<AgentRouteDeps> = async (app, deps) => {
  const agents = deps.commands.bind(agentCommands)
  const scoped = (request: { params: { id: string } }, organizationId: string) => ({
    organizationId,
    agentId: request.params.id,
    now: deps.clock().toISOString(),
  })
  /** The agent of the organization, and of the X-On-Behalf-Of customer when there is one (404 otherwise). */
  async function agentInScope(request: { params: { id: string }; onBehalfOf?: string | undefined }, organizationId: string) {
    const agent = await loadOrgAgent(deps.commands, organizationId, request.params.id)
    if (request.onBehalfOf !== undefined && agent.customerId !== request.onBehalfOf) throw notFound('Agent', agent.agentId)
    return agent
  }

  app.post(
    '/agents',
    {
      schema: {
        operationId: 'createAgent',
        tags: AGENT_TAGS,
        summary: 'Create an agent',
        description:
          'A limited-authority payer for one customer: it pays from `sourceAccountId` (a balance account of the customer) to the ' +
          'accounts of `allowedDestinationAccountIds` (the customer’s own or its counterparties’), within `limits`. 403 ' +
          'agents_not_enabled until an operator enables agents for the organization; 404 for a customer or account the ' +
          'organization does not have; 422 agent_account_not_allowed naming each account the agent may not use. Issue it a key ' +
          'with POST /v1/agents/{id}/keys.',
        headers: writeHeaders,
        body: createAgentBody,
        response: { 201: agentResource, ...errorResponses(403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      const { customerId, sourceAccountId, ...settings } = request.body
      assertCustomerInScope(request, customerId)
      const [enabled, , sourceAccount, destinations] = await Promise.all([
        agentsEnabled(deps.commands, organizationId),
        loadSender(deps.commands, organizationId, customerId),
        loadAccountFact(deps.commands, organizationId, sourceAccountId),
        loadAccountFacts(deps.commands, organizationId, settings.allowedDestinationAccountIds),
      ])
      const resource = await agents.handle(request, {
        type: 'CreateAgent',
        organizationId,
        agentId: newId('agt'),
        now: deps.clock().toISOString(),
        customerId,
        sourceAccountId,
        settings,
        facts: { agentsEnabled: enabled, sourceAccount, destinations },
      })
      return reply.code(201).send(resource)
    },
  )

  app.patch(
    '/agents/:id',
    {
      schema: {
        operationId: 'updateAgent',
        tags: AGENT_TAGS,
        summary: 'Change an agent',
        description:
          'Fields omitted stay as they are; the customer, the source account and the limits currency are fixed (422 ' +
          'agent_limits_currency_fixed). A new allowlist is checked as at ' +
          'create (422 agent_account_not_allowed). New limits apply to the next transfer. 409 agent_invalid_transition for a ' +
          'REVOKED agent. An unchanged body answers the agent as it is, with no event.',
        headers: writeHeaders,
        params: agentParams,
        body: updateAgentBody,
        response: { 200: agentResource, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const agent = await agentInScope(request, organizationId)
      const destinations =
        request.body.allowedDestinationAccountIds === undefined
          ? undefined
          : await loadAccountFacts(deps.commands, organizationId, request.body.allowedDestinationAccountIds)
      const changes = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined))
      return agents.handle(request, {
        type: 'UpdateAgent',
        ...scoped(request, organizationId),
        agentId: agent.agentId,
        changes,
        facts: { agentsEnabled: true, ...(destinations ? { destinations } : {}) },
      })
    },
  )

  const statusRoutes = [
    [
      'pause',
      'pauseAgent',
      'Pause an agent',
      'ACTIVE to PAUSED: its keys are refused (403) until it is resumed. Pausing a PAUSED agent answers it.',
    ],
    ['resume', 'resumeAgent', 'Resume an agent', 'PAUSED to ACTIVE. Resuming an ACTIVE agent answers it.'],
    [
      'revoke',
      'revokeAgent',
      'Revoke an agent',
      'ACTIVE or PAUSED to REVOKED, final: its keys stop working at once and nothing changes it again. Revoking a REVOKED agent ' +
        'answers it.',
    ],
  ] as const
  for (const [action, operationId, summary, description] of statusRoutes) {
    app.post(
      `/agents/:id/${action}`,
      {
        schema: {
          operationId,
          tags: AGENT_TAGS,
          summary,
          description: `${description} 409 agent_invalid_transition from REVOKED.`,
          headers: writeHeaders,
          params: agentParams,
          body: reasonBody,
          response: { 200: agentResource, ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        const { organizationId } = principalOf(request)
        await agentInScope(request, organizationId)
        const reason = request.body?.reason ?? null
        const base = scoped(request, organizationId)
        if (action === 'pause') return agents.handle(request, { type: 'PauseAgent', ...base, reason })
        if (action === 'resume') return agents.handle(request, { type: 'ResumeAgent', ...base })
        return agents.handle(request, { type: 'RevokeAgent', ...base, reason })
      },
    )
  }

  app.post(
    '/agents/:id/keys',
    {
      schema: {
        operationId: 'createAgentKey',
        tags: AGENT_TAGS,
        summary: 'Issue an agent key',
        description:
          'A key (sk_sandbox_agent_... in sandbox, sk_live_agent_... in production) the agent sends as its Bearer token. It is ' +
          'shown in this answer only and stored as a hash. It acts only on its agent’s customer, source account and allowed ' +
          `payees, within its limits, and stops working when revoked, past expiresAt, or while its agent is PAUSED or REVOKED. ` +
          `403 agents_not_enabled; 409 agent_invalid_transition for a REVOKED agent, agent_key_limit_reached past ` +
          `${AGENT_KEY_LIMITS.maxActiveKeys} live keys.`,
        headers: writeHeaders,
        params: agentParams,
        body: issueKeyBody,
        response: { 201: issuedAgentKeyResource, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { organizationId } = principalOf(request)
      await agentInScope(request, organizationId)
      const now = deps.clock()
      const expiresAt = checkedExpiry(request.body?.expiresAt, now)
      const key = generateAgentKey(deps.environment)
      const keyId = newId('agk')
      const state = openedAgent(
        await agents.handleToState(request, {
          type: 'IssueAgentKey',
          organizationId,
          agentId: request.params.id,
          now: now.toISOString(),
          keyId,
          environment: deps.environment,
          keyHash: hashApiKey(key),
          last4: key.slice(-4),
          expiresAt,
          agentsEnabled: await agentsEnabled(deps.commands, organizationId),
        }),
      )
      const issued = state.keys.find((k) => k.keyId === keyId)
      if (!issued) throw new Error(`key ${keyId} missing after its issue`)
      return reply.code(201).send({ ...toAgentKeyResource(state.agentId, issued, null, now), key })
    },
  )

  app.delete(
    '/agents/:id/keys/:keyId',
    {
      schema: {
        operationId: 'revokeAgentKey',
        tags: AGENT_TAGS,
        summary: 'Revoke an agent key',
        description: 'The key stops working at once. 404 for a key the agent does not hold (or holds no more).',
        headers: writeHeaders,
        params: agentKeyParams,
        response: { 200: agentKeyResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { organizationId } = principalOf(request)
      const agent = await agentInScope(request, organizationId)
      const key = agent.keys.find((k) => k.keyId === request.params.keyId)
      const now = deps.clock()
      await agents.handle(request, {
        type: 'RevokeAgentKey',
        organizationId,
        agentId: agent.agentId,
        now: now.toISOString(),
        keyId: request.params.keyId,
      })
      if (!key) throw new Error(`key ${request.params.keyId} revoked but not held`)
      return toAgentKeyResource(agent.agentId, key, now.toISOString(), now)
    },
  )
}
