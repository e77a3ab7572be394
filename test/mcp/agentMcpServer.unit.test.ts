// The MCP server's tools with a fake REST API (no database): which REST call each tool makes, and
// how each answer becomes a tool result: a resource, a tool error with the error body, a limit
// denial with denial and hint, and a submit waiting for approval as a normal result.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import t, { type Test } from 'tap'
import type { AgentPrincipal } from '../../http/principal.js'
import { agentMcpServer } from '../../server/mcp/agentMcpServer.js'
import type { RestAnswer, RestRequest } from '../../server/mcp/restCall.js'
import { structured } from './structured.js'

const agent: AgentPrincipal = {
  agentId: 'agt_01jz0000000000000000000000',
  customerId: 'cus_01jz0000000000000000000000',
  sourceAccountId: 'acc_01jz0000000000000000000000',
  allowedDestinationAccountIds: ['eba_01jz0000000000000000000000'],
  mcpRole: 'PAYMENT',
}

const denial = {
  code: 'per_day_limit_exceeded',
  message: 'over',
  window: 'PER_DAY',
  limit: '250.00',
  used: '200.00',
  remaining: '50.00',
  attemptedAmount: '60.00',
  currency: 'USD',
}

async function connect(t: Test, answer: (call: RestRequest) => RestAnswer, role: AgentPrincipal['mcpRole'] = 'PAYMENT') {
  const calls: RestRequest[] = []
  const server = agentMcpServer({
    organizationId: 'org_x',
    agent: { ...agent, mcpRole: role },
    rest: async (call) => {
      calls.push(call)
      return answer(call)
    },
    check: async () => ({ wouldSucceed: true }),
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'unit', version: '1' })
  await client.connect(clientSide)
  t.teardown(() => client.close())
  return { client, calls }
}

t.test('create_transfer posts the agent-shaped body from its own source account, with the Idempotency-Key', async (t) => {
  const { client, calls } = await connect(t, () => ({ statusCode: 201, body: { id: 'tfr_1', status: 'PROCESSING' }, replayed: false }))
  const result = await client.callTool({
    name: 'create_transfer',
    arguments: {
      destinationAccountId: agent.allowedDestinationAccountIds[0],
      paymentRail: 'ACH',
      sourceAmount: '2500',
      idempotencyKey: 'k1',
    },
  })
  t.notOk(result.isError)
  t.same(structured(result), { id: 'tfr_1', status: 'PROCESSING' })
  t.same(calls, [
    {
      method: 'POST',
      url: '/v1/transfers',
      idempotencyKey: 'k1',
      payload: {
        source: { accountId: agent.sourceAccountId },
        destination: { accountId: agent.allowedDestinationAccountIds[0], paymentRail: 'ACH' },
        sourceAmount: '2500',
      },
    },
  ])
})

t.test('a limit denial is a tool error with the code, denial and hint', async (t) => {
  const body = { error: 'Forbidden', code: 'agent_limit_exceeded', message: 'over', statusCode: 403, requestId: 'r', denial, hint: 'wait' }
  const { client } = await connect(t, () => ({ statusCode: 403, body, replayed: false }))
  const result = await client.callTool({
    name: 'create_transfer',
    arguments: { destinationAccountId: 'eba_x', sourceAmount: '6000', idempotencyKey: 'k2' },
  })
  t.equal(result.isError, true)
  t.same(structured(result), {
    error: { statusCode: 403, code: 'agent_limit_exceeded', message: 'over', requestId: 'r', denial, hint: 'wait' },
  })
})

t.test('submit_transfer: a pending approval is a normal result with the transfer id and a hint to poll', async (t) => {
  const body = { error: 'Forbidden', code: 'agent_approval_required', message: 'needs approval', statusCode: 403, requestId: 'r', denial }
  const { client, calls } = await connect(t, () => ({ statusCode: 403, body, replayed: false }))
  const result = await client.callTool({ name: 'submit_transfer', arguments: { transferId: 'tfr_9', idempotencyKey: 'k3' } })
  t.notOk(result.isError, 'not an error')
  t.match(structured(result), {
    transferId: 'tfr_9',
    pendingApproval: true,
    error: { code: 'agent_approval_required', denial },
    hint: /poll get_transfer with tfr_9/,
  })
  t.same(calls, [{ method: 'POST', url: '/v1/transfers/tfr_9/submit', idempotencyKey: 'k3' }])
})

t.test('reads: limits, one transfer and a page of the agent’s own transfers', async (t) => {
  const { client, calls } = await connect(t, () => ({ statusCode: 200, body: { ok: true }, replayed: false }), 'PAYMENT_OPERATIONS')
  await client.callTool({ name: 'get_limits', arguments: {} })
  await client.callTool({ name: 'get_transfer', arguments: { transferId: 'tfr_1/../x' } })
  await client.callTool({ name: 'list_transfers', arguments: { status: 'COMPLETED', pageSize: 5, startingAfter: 'tfr_2' } })
  await client.callTool({ name: 'list_transfers', arguments: {} })
  t.same(
    calls.map((c) => c.url),
    [
      `/v1/agents/${agent.agentId}/limits`,
      '/v1/transfers/tfr_1%2F..%2Fx',
      `/v1/transfers?agentId=${agent.agentId}&page_size=5&status=COMPLETED&starting_after=tfr_2`,
      `/v1/transfers?agentId=${agent.agentId}&page_size=20`,
    ],
  )
  t.ok(
    calls.every((c) => c.method === 'GET'),
    'reads only',
  )
  const tooMany = await client.callTool({ name: 'list_transfers', arguments: { pageSize: 1000 } }).then(
    (r) => r.isError === true,
    () => true,
  )
  t.ok(tooMany, 'a page over 100 is refused before any call')
  t.equal(calls.length, 4)
})
