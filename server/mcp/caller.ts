// Who calls the MCP server, as the tools see them: the agent its key authenticated (the server is
// built per request from it), the REST routes reached with that key, and the create check.
import type { AgentTransferCheck } from '../../commands/transfers/agentTransferCheck.js'
import type { CreateTransferBody } from '../../domain/transfer/createTransferBody.js'
import type { AgentPrincipal } from '../../http/principal.js'
import type { RestCall } from './restCall.js'

export type McpCaller = {
  organizationId: string
  agent: AgentPrincipal
  rest: RestCall
  /** What POST /v1/transfers would answer for this body, changing nothing (commands/transfers/agentTransferCheck.ts). */
  check(body: CreateTransferBody): Promise<AgentTransferCheck>
}
