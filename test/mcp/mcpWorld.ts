// Helpers of the MCP tests: the test app listening on a loopback port (the MCP client speaks real
// HTTP), an agent with a funded source account and a payee, and an MCP client with a key.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { sql } from 'kysely'
import type { TestApp } from '../harness/testApp.js'
import { startTestApp } from '../harness/testApp.js'
import { type AgentParties, agentParties, enableAgents, newAgent, newAgentKey } from '../agents/agentWorld.js'
import { fundIn } from '../transfers/transferWorld.js'

export { structured } from './structured.js'

type TapLike = Parameters<typeof startTestApp>[0]

export const LIMITS = { currency: 'USD', perTransaction: '10000', perDay: '25000', perMonth: '40000' }

export type McpWorld = { h: TestApp; url: URL; p: AgentParties; agentId: string; key: string }

/** The app on a port, agents enabled, one PAYMENT agent (LIMITS, DENY) of a customer with 500.00 USD. */
export async function startMcpWorld(t: TapLike, agent: Record<string, unknown> = {}): Promise<McpWorld> {
  const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
  const address = await h.app.listen({ port: 0, host: '127.0.0.1' })
  await enableAgents(h)
  const p = await agentParties(h)
  await fundIn(h, p.sourceAccountId, '500.00')
  const { id } = await newAgent(h, p, { limits: LIMITS, ...agent })
  const { key } = await newAgentKey(h, id)
  return { h, url: new URL('/mcp', address), p, agentId: id, key }
}

/** A connected MCP client (the 2025 handshake unless `mode` says otherwise); closed at teardown. */
export async function mcpClient(
  t: TapLike,
  url: URL,
  key: string,
  options: { mode?: 'legacy' | 'auto'; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' }, { versionNegotiation: { mode: options.mode ?? 'legacy' } })
  const headers = { authorization: `Bearer ${key}`, ...options.headers }
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

export const transferArgs = (p: AgentParties, sourceAmount: string, extra: Record<string, unknown> = {}) => ({
  destinationAccountId: p.payeeId,
  paymentRail: 'ACH',
  sourceAmount,
  ...extra,
})

/** How many stored events carry this request id (what a request appended, whatever timers append meanwhile). */
export async function appendedBy(h: TestApp, requestId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es_events WHERE metadata->>'requestId' = ${requestId}`.execute(
    h.runtime.db,
  )
  return rows[0]?.n ?? 0
}
