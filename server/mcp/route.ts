// The MCP server at /mcp (issue 27, point 7): Streamable HTTP, stateless, one MCP server built per
// request from the agent the key authenticated (agentMcpServer.ts). Only an agent key is accepted
// (401 in the one error body otherwise, like any bad key); its tools reach the REST routes with that
// same key (restCall.ts). Outside /v1, so the agent scope's list of REST operations does not apply to
// /mcp itself, only to what its tools call. Hidden from the OpenAPI document: it is JSON-RPC, not a
// REST operation, and the proofs that sweep /api-json would read its 200 envelopes as wrong answers.
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { checkAgentTransfer } from '../../commands/transfers/agentTransferCheck.js'
import { ApiError } from '../../http/errorBody.js'
import { principalOf } from '../../http/principal.js'
import type { AreaContext } from '../areas/areaContext.js'
import { authenticate } from '../auth/authenticate.js'
import { agentMcpServer } from './agentMcpServer.js'
import type { McpCaller } from './caller.js'
import { sendWebResponse, toWebRequest } from './httpBridge.js'
import { restCaller } from './restCall.js'

export const MCP_PATH = '/mcp'

const notAnAgentKey = () =>
  new ApiError(401, 'The MCP server takes an agent key: send Authorization: Bearer sk_sandbox_agent_… (or sk_live_agent_…)')

export const mcpArea: FastifyPluginAsyncZod<AreaContext> = async (app, c) => {
  // The same authentication as /v1 (in this plugin's own scope): an unknown, revoked or expired key is 401, a paused agent 403.
  await app.register(authenticate, { db: c.db, environment: c.environment, clock: c.clock })
  app.addHook('onRequest', async (request) => {
    if (!principalOf(request).agent) throw notAnAgentKey()
  })

  app.route({
    // GET and DELETE are the 2025 session operations: the stateless handler answers them 405.
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async (request, reply) => {
      const { organizationId, agent } = principalOf(request)
      if (!agent) throw notAnAgentKey()
      const caller: McpCaller = {
        organizationId,
        agent,
        rest: restCaller(app, request),
        check: (body) => checkAgentTransfer(c.commands, c.environment, { organizationId, agent, body, now: c.clock() }),
      }
      const handler = createMcpHandler(() => agentMcpServer(caller), {
        legacy: 'stateless',
        // No heartbeat: the answer is read whole (httpBridge.ts) and ends with the exchange.
        keepAliveMs: 0,
        onerror: (error) => request.log.warn({ err: error, agentId: agent.agentId }, 'mcp request refused or failed'),
      })
      try {
        const response = await handler.fetch(toWebRequest(request), { parsedBody: request.body })
        request.log.debug({ agentId: agent.agentId, status: response.status }, 'mcp request')
        return await sendWebResponse(reply, response)
      } finally {
        await handler.close()
      }
    },
  })
}
