// Read routes of agents: read one, list (filters customerId, sourceAccountId, status, mcpRole; offset
// or cursor paging), and an agent's keys (never their secrets).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { AGENT_STATUSES, MCP_ROLES } from '../../domain/agent/agentBody.js'
import { agentKeyResource, agentLimitsResource, agentResource } from '../../domain/agent/resource.js'
import { notFound } from '../../domain/errors.js'
import { errorResponses } from '../../http/errorBody.js'
import { readHeaders } from '../../http/headers.js'
import { unknownCursor } from '../../http/pagination/cursorPage.js'
import { listWindowOf, offsetShapedListQuery, offsetShapedListSchema } from '../../http/pagination/offsetShapedList.js'
import { principalOf } from '../../http/principal.js'
import type { ReadDatabase } from '../../projections/schema.js'
import { AGENT_TAGS, agentParams } from '../../http/agentParams.js'
import { accountOf, assertFilterIdsKnown, customerOf } from '../filterIds.js'
import { type AgentScope, findAgent, findAgentLimits, listAgentKeys, listAgents } from './queries.js'

export const agentListQuery = offsetShapedListQuery({
  customerId: z.string().max(64).optional().describe('Only the agents of this customer (cus_)'),
  sourceAccountId: z.string().max(64).optional().describe('Only the agents paying from this account'),
  status: z.enum(AGENT_STATUSES).optional(),
  mcpRole: z.enum(MCP_ROLES).optional(),
})

const keyListQuery = offsetShapedListQuery({})

const scopeOf = (request: FastifyRequest): AgentScope => ({
  organizationId: principalOf(request).organizationId,
  onBehalfOf: request.onBehalfOf,
})

export const agentReadRoutes: FastifyPluginAsyncZod<{ db: Kysely<ReadDatabase>; clock: () => Date }> = async (app, { db, clock }) => {
  app.get(
    '/agents',
    {
      schema: {
        operationId: 'listAgents',
        tags: AGENT_TAGS,
        summary: 'List agents, newest first (filters customerId, sourceAccountId, status, mcpRole; offset or cursor paging)',
        description:
          'Offset mode: limit (1-1000, default 500) and offset. Cursor mode: page_size (1-1000, default 500) and starting_after. ' +
          'Both answer data, total, limit, offset. 404: customerId or sourceAccountId names none of the organization; 422: ' +
          'starting_after names no agent of this list (invalid_cursor).',
        headers: readHeaders,
        querystring: agentListQuery,
        response: { 200: offsetShapedListSchema(agentResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const q = request.query
      const scope = scopeOf(request)
      await assertFilterIdsKnown([
        { parameter: 'customerId', what: 'Customer', id: q.customerId, known: customerOf(db, scope.organizationId) },
        { parameter: 'sourceAccountId', what: 'Account', id: q.sourceAccountId, known: accountOf(db, scope.organizationId) },
      ])
      const window = listWindowOf(q)
      const page = await listAgents(db, scope, q, window)
      if (!page) throw unknownCursor(q)
      return { data: page.data, total: page.total, limit: window.size, offset: page.offset }
    },
  )

  app.get(
    '/agents/:id',
    {
      schema: {
        operationId: 'getAgent',
        tags: AGENT_TAGS,
        summary: 'Read an agent',
        description: "404 for an unknown agent, another organization's, or another customer's with X-On-Behalf-Of.",
        headers: readHeaders,
        params: agentParams,
        response: { 200: agentResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await findAgent(db, scopeOf(request), request.params.id)
      if (!found) throw notFound('Agent', request.params.id)
      return found
    },
  )

  app.get(
    '/agents/:id/limits',
    {
      schema: {
        operationId: 'getAgentLimits',
        tags: AGENT_TAGS,
        summary: "Read an agent's limits with what each window has used and has left",
        description:
          'Per transaction: the limit. Per day and per month (calendar windows, UTC): the limit, what transfers the agent made in ' +
          'the window have reserved (a cancelled, failed or declined one releases its amount), what remains, and resetsAt. Minor ' +
          'units of the limits currency. An agent key reads its own agent’s.',
        headers: readHeaders,
        params: agentParams,
        response: { 200: agentLimitsResource, ...errorResponses(404) },
      },
    },
    async (request) => {
      const found = await findAgentLimits(db, scopeOf(request), request.params.id, clock())
      if (!found) throw notFound('Agent', request.params.id)
      return found
    },
  )

  app.get(
    '/agents/:id/keys',
    {
      schema: {
        operationId: 'listAgentKeys',
        tags: AGENT_TAGS,
        summary: "List an agent's keys, newest first (revoked and expired ones too; never a secret)",
        headers: readHeaders,
        params: agentParams,
        querystring: keyListQuery,
        response: { 200: offsetShapedListSchema(agentKeyResource), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      if (!(await findAgent(db, scope, request.params.id))) throw notFound('Agent', request.params.id)
      const window = listWindowOf(request.query)
      const page = await listAgentKeys(db, scope.organizationId, request.params.id, window, clock())
      if (!page) throw unknownCursor(request.query)
      return { data: page.data, total: page.total, limit: window.size, offset: page.offset }
    },
  )
}
