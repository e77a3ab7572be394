// The MCP server of one request, built from the agent its key authenticated: every agent reads its
// limits and transfers and checks a transfer; only a PAYMENT agent gets create and submit (spec:
// Agent, mcpRole), so a PAYMENT_OPERATIONS agent neither sees them in tools/list nor can call them.
import { McpServer } from '@modelcontextprotocol/server'
import type { McpCaller } from './caller.js'
import { registerCheckTool, registerWriteTools } from './paymentTools.js'
import { registerReadTools } from './readTools.js'

export const MCP_SERVER_INFO = { name: 'payments-agent', version: '1.0.0' } as const

export function agentMcpServer(caller: McpCaller): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      `You act as agent ${caller.agent.agentId} (${caller.agent.mcpRole}): you pay from ${caller.agent.sourceAccountId} to the ` +
      'payees your owner allowed, within your limits. Check a transfer before making it; give every write a fresh idempotencyKey ' +
      'and reuse it only to retry the same call.',
  })
  registerReadTools(server, caller)
  registerCheckTool(server, caller)
  if (caller.agent.mcpRole === 'PAYMENT') registerWriteTools(server, caller)
  return server
}
