// What an agent key may call (spec: Authentication 3, Agent). An agent acts only on its own agent,
// its customer, its source account and the payees its owner allowed: each operation it may call is
// listed here with the check of its scope, and every other operation is 403 agent_key_not_allowed,
// whatever its arguments. So an agent key never approves, never changes a limit or an allowlist, and
// never reaches an operation added later until it is listed here. An agent key's requests are scoped
// to its customer as X-On-Behalf-Of would scope them (another customer named there is 403).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../http/errorBody.js'
import type { AgentPrincipal } from '../../http/principal.js'
import { ON_BEHALF_OF_HEADER } from './onBehalfOf.js'

type ScopeCheck = (request: FastifyRequest, agent: AgentPrincipal) => void

const forbidden = (message: string) => new ApiError(403, message, 'agent_key_not_allowed')

const paramOf = (request: FastifyRequest, name: string): string | undefined => (request.params as Record<string, string | undefined>)[name]

/** The agent's own record: its id in the path. */
const ownAgent: ScopeCheck = (request, agent) => {
  if (paramOf(request, 'id') !== agent.agentId) throw forbidden(`An agent key reads only its own agent (${agent.agentId})`)
}

/** The operations an agent key may call, by method and route, each with its scope check. */
export const AGENT_OPERATIONS: Readonly<Record<string, ScopeCheck>> = {
  'GET /v1/agents/:id': ownAgent,
  'GET /v1/agents/:id/limits': ownAgent,
  // The body names the accounts: checked with the role and the limits by the route (commands/transfers/agentTransfers.ts).
  'POST /v1/transfers': () => undefined,
  // Its own transfers only: the route checks the transfer's agent, role and payee (commands/transfers/agentSubmit.ts).
  'POST /v1/transfers/:id/submit': () => undefined,
  // Reads scoped to the transfers its agent made by the read routes (read-api/transfers/queries.ts, TransferScope.agentId).
  'GET /v1/transfers/:id': () => undefined,
  'GET /v1/transfers': () => undefined,
}

export const agentScope = fp(async (app: FastifyInstance) => {
  // Registered after authenticate and onBehalfOf: the principal is known, the route matched.
  app.addHook('onRequest', async (request) => {
    const agent = request.principal?.agent
    if (!agent) return
    const header = request.headers[ON_BEHALF_OF_HEADER]
    if (header !== undefined && request.onBehalfOf !== agent.customerId)
      throw forbidden(`An agent key acts only for its customer (${agent.customerId})`)
    request.onBehalfOf = agent.customerId
    // HEAD is the GET route's own (fastify makes it): allowed exactly where the GET is.
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const check = AGENT_OPERATIONS[`${method} ${request.routeOptions.url ?? ''}`]
    if (!check) throw forbidden(`An agent key cannot call ${request.method} ${request.routeOptions.url ?? request.url}`)
    check(request, agent)
  })
})
