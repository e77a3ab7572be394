// The authenticated caller of a request (set by server/auth/authenticate.ts) and the one typed way
// to read it: a route that runs without one answers 401 instead of failing on undefined.
import type { FastifyRequest } from 'fastify'
import type { ApiKeyRole } from '../domain/organization/apiKeys.js'
import type { Environment } from '../domain/shared/environment.js'

/** An agent key's authority (spec: Agent): one customer, one source account, the payees its owner allows. */
export type AgentPrincipal = {
  agentId: string
  customerId: string
  sourceAccountId: string
  allowedDestinationAccountIds: readonly string[]
  mcpRole: 'PAYMENT' | 'PAYMENT_OPERATIONS'
}

/**
 * `agent` is set exactly for an agent key: server/auth/agentScope.ts then decides what it may call. `role` is a
 * platform key's (absent on an agent key): AUDITOR keys only read (server/auth/auditorScope.ts).
 */
export type Principal = { organizationId: string; keyId: string; environment: Environment; role?: ApiKeyRole; agent?: AgentPrincipal }

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
}

/** No authenticated principal on a request that needs one; its statusCode makes the error body a 401. */
export class MissingPrincipalError extends Error {
  override readonly name = 'MissingPrincipalError'
  readonly statusCode = 401
  constructor() {
    super('Missing API key: send Authorization: Bearer <API_KEY>')
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new MissingPrincipalError()
  return request.principal
}
