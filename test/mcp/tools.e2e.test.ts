// The MCP server (issue 27, point 7) through a real MCP client over Streamable HTTP: the tools an
// agent sees by its role, its limits, a check that changes nothing, creates made idempotent by
// their key, and the keys /mcp refuses.
import t from 'tap'
import { streams } from '../../events/streams.js'
import { newAgent, newAgentKey } from '../agents/agentWorld.js'
import { LIMITS, appendedBy, mcpClient, startMcpWorld, structured, transferArgs } from './mcpWorld.js'

const ALL_TOOLS = ['check_transfer', 'create_transfer', 'get_limits', 'get_transfer', 'list_transfers', 'submit_transfer']

t.test('tools/list by role: a PAYMENT agent sees the writes; a PAYMENT_OPERATIONS agent neither sees nor calls them', async (t) => {
  const w = await startMcpWorld(t)
  const payment = await mcpClient(t, w.url, w.key)
  t.same((await payment.listTools()).tools.map((tool) => tool.name).sort(), ALL_TOOLS)

  const ops = await newAgent(w.h, w.p, { name: 'Ops bot', limits: LIMITS, mcpRole: 'PAYMENT_OPERATIONS' })
  const opsClient = await mcpClient(t, w.url, (await newAgentKey(w.h, ops.id)).key)
  t.same(
    (await opsClient.listTools()).tools.map((tool) => tool.name).sort(),
    ['check_transfer', 'get_limits', 'get_transfer', 'list_transfers'],
    'no create_transfer, no submit_transfer',
  )
  // Called anyway, by name: the per-request server has no such tool.
  for (const name of ['create_transfer', 'submit_transfer']) {
    const refused = await opsClient
      .callTool({ name, arguments: { ...transferArgs(w.p, '100'), transferId: 'tfr_x', idempotencyKey: `ops-${name}` } })
      .then(
        (result) => result.isError === true,
        () => true,
      )
    t.ok(refused, `${name} refused`)
  }
  const check = structured(await opsClient.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '100') }))
  t.match(check, { wouldSucceed: false, error: { statusCode: 403, code: 'agent_key_not_allowed', message: /PAYMENT_OPERATIONS/ } })
  t.equal((await w.h.request({ method: 'GET', url: '/v1/transfers' })).json().data.length, 0, 'nothing created')
})

t.test('get_limits answers what GET /v1/agents/{id}/limits does', async (t) => {
  const w = await startMcpWorld(t)
  const client = await mcpClient(t, w.url, w.key)
  const result = await client.callTool({ name: 'get_limits', arguments: {} })
  t.notOk(result.isError)
  const rest = await w.h.request({ method: 'GET', url: `/v1/agents/${w.agentId}/limits`, apiKey: w.key })
  t.same(structured(result), rest.json())
  t.match(structured(result), { perTransaction: { limit: '10000' }, perDay: { limit: '25000', used: '0' } })
})

t.test('check_transfer predicts success and denial and changes nothing', async (t) => {
  const w = await startMcpWorld(t)
  const requestId = 'mcp-check-request'
  const client = await mcpClient(t, w.url, w.key, { headers: { 'x-request-id': requestId } })
  const spendBefore = await w.h.runtime.store.readStream(streams.agentSpend(w.agentId))
  const limitsBefore = (await w.h.request({ method: 'GET', url: `/v1/agents/${w.agentId}/limits` })).json()

  const fits = await client.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '5000') })
  t.notOk(fits.isError)
  t.same(structured(fits), { wouldSucceed: true })
  const tooBig = structured(await client.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '10001') }))
  t.match(tooBig, {
    wouldSucceed: false,
    denial: { code: 'per_transaction_limit_exceeded', window: 'PER_TRANSACTION', limit: '100.00', attemptedAmount: '100.01' },
    hint: /smaller/,
  })
  const otherPayee = structured(
    await client.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '100', { destinationAccountId: w.p.sourceAccountId }) }),
  )
  t.match(otherPayee, { wouldSucceed: false, error: { statusCode: 403, code: 'agent_key_not_allowed' } })
  const draft = structured(await client.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '10001', { confirm: false }) }))
  t.match(draft, { wouldSucceed: true, hint: /DRAFT reserves nothing/ }, 'a draft is not counted until it is submitted')

  t.same(await w.h.runtime.store.readStream(streams.agentSpend(w.agentId)), spendBefore, 'the spend stream is unchanged')
  t.same((await w.h.request({ method: 'GET', url: `/v1/agents/${w.agentId}/limits` })).json(), limitsBefore, 'the limits too')
  t.equal((await w.h.request({ method: 'GET', url: '/v1/transfers' })).json().data.length, 0, 'no transfer')
  t.equal(await appendedBy(w.h, requestId), 0, 'no event carries the checks’ request id')

  // Two transfers of 100.00 fill 200.00 of the 250.00 day: the check sees the window as a create would.
  for (const key of ['fill-1', 'fill-2'])
    t.notOk((await client.callTool({ name: 'create_transfer', arguments: { ...transferArgs(w.p, '10000'), idempotencyKey: key } })).isError)
  const overDay = structured(await client.callTool({ name: 'check_transfer', arguments: transferArgs(w.p, '5001') }))
  t.match(overDay, { wouldSucceed: false, denial: { window: 'PER_DAY', used: '200.00', remaining: '50.00' }, hint: /at most 50.00 USD/ })
  const create = await client.callTool({ name: 'create_transfer', arguments: { ...transferArgs(w.p, '5001'), idempotencyKey: 'over' } })
  t.equal(create.isError, true, 'the create is refused as predicted')
  t.match(structured(create), { error: { statusCode: 403, code: 'agent_limit_exceeded', denial: overDay.denial, hint: overDay.hint } })
})

t.test('create_transfer: the same idempotencyKey replays the first answer; with other arguments it is refused', async (t) => {
  const w = await startMcpWorld(t)
  const client = await mcpClient(t, w.url, w.key)
  const call = (sourceAmount: string, idempotencyKey: string) =>
    client.callTool({ name: 'create_transfer', arguments: { ...transferArgs(w.p, sourceAmount), idempotencyKey } })

  const first = await call('2500', 'pay-invoice-7')
  t.notOk(first.isError, 'created')
  const created = structured(first)
  t.match(created, { agentId: w.agentId, sourceAmount: { value: '2500' } })
  const again = await call('2500', 'pay-invoice-7')
  t.notOk(again.isError)
  t.equal(structured(again).id, created.id, 'the same transfer')
  t.same(again._meta, { idempotentReplayed: true }, 'marked as a replay')
  const reused = await call('2600', 'pay-invoice-7')
  t.equal(reused.isError, true)
  t.match(structured(reused), { error: { statusCode: 409, code: 'idempotency_key_reused' } })

  const listed = (await w.h.request({ method: 'GET', url: `/v1/transfers?agentId=${w.agentId}` })).json()
  t.equal(listed.data.length, 1, 'one transfer')
  t.match(
    (await w.h.request({ method: 'GET', url: `/v1/agents/${w.agentId}/limits` })).json(),
    { perDay: { used: '2500' } },
    'counted once',
  )

  const missing = await client.callTool({ name: 'create_transfer', arguments: transferArgs(w.p, '2500') }).then(
    (r) => r.isError === true,
    () => true,
  )
  t.ok(missing, 'no idempotencyKey: refused')
})

t.test('/mcp takes agent keys only: none, a platform key or an unknown key is 401 in the one error body', async (t) => {
  const w = await startMcpWorld(t)
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  }
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }
  for (const [what, key] of [
    ['no key', null],
    ['a platform key', w.h.org.apiKey],
    ['an unknown agent key', `sk_sandbox_agent_${'x'.repeat(40)}`],
  ] as const) {
    const res = await w.h.request({ method: 'POST', url: '/mcp', apiKey: key, headers, payload: initialize })
    t.equal(res.statusCode, 401, what)
    t.match(res.json(), { error: 'Unauthorized', statusCode: 401, message: String, requestId: String }, `${what}: the error body`)
  }
  await t.rejects(mcpClient(t, w.url, w.h.org.apiKey), 'the MCP client cannot connect with a platform key')
  const get = await w.h.request({ method: 'GET', url: '/mcp', apiKey: w.key, headers: { accept: 'text/event-stream' } })
  t.equal(get.statusCode, 405, 'stateless: no GET stream')
  const doc = (await w.h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  t.notOk(doc.paths['/mcp'], 'not in the OpenAPI document')
})

t.test('a 2026-07-28 client (version negotiation) is served the same tools', async (t) => {
  const w = await startMcpWorld(t)
  const client = await mcpClient(t, w.url, w.key, { mode: 'auto' })
  t.same((await client.listTools()).tools.map((tool) => tool.name).sort(), ALL_TOOLS)
  t.match(structured(await client.callTool({ name: 'get_limits', arguments: {} })), { agentId: w.agentId })
})

t.test('get_transfer, list_transfers and submit_transfer: the agent’s own transfers, as the REST routes answer them', async (t) => {
  const w = await startMcpWorld(t)
  const client = await mcpClient(t, w.url, w.key)
  const draft = await client.callTool({
    name: 'create_transfer',
    arguments: { ...transferArgs(w.p, '2500', { confirm: false }), idempotencyKey: 'draft-1' },
  })
  t.notOk(draft.isError, 'a DRAFT created')
  const transferId = String(structured(draft).id)
  t.match(structured(draft), { status: 'DRAFT', agentId: w.agentId })

  const read = await client.callTool({ name: 'get_transfer', arguments: { transferId } })
  t.notOk(read.isError)
  const readRest = await w.h.request({ method: 'GET', url: `/v1/transfers/${transferId}`, apiKey: w.key })
  t.same(structured(read), readRest.json(), 'get_transfer: the REST resource')
  const list = await client.callTool({ name: 'list_transfers', arguments: { pageSize: 10 } })
  t.notOk(list.isError)
  t.same(
    (structured(list).data as { id: string }[]).map((x) => x.id),
    [transferId],
    'list_transfers: its own transfers',
  )

  const submit = await client.callTool({ name: 'submit_transfer', arguments: { transferId, idempotencyKey: 'submit-1' } })
  t.notOk(submit.isError, 'submitted')
  t.ok(['PENDING', 'PROCESSING'].includes(String(structured(submit).status)), `submitted (${String(structured(submit).status)})`)
  const limits = await client.callTool({ name: 'get_limits', arguments: {} })
  t.match(structured(limits), { perDay: { used: '2500' } }, 'reserved at submit')
  const again = await client.callTool({ name: 'submit_transfer', arguments: { transferId, idempotencyKey: 'submit-1' } })
  t.same(structured(again), structured(submit), 'the same idempotencyKey replays the first answer')

  const other = await client.callTool({ name: 'get_transfer', arguments: { transferId: 'tfr_01jz0000000000000000000000' } })
  t.equal(other.isError, true, 'an unknown transfer is a tool error')
  t.match(structured(other), { error: { statusCode: 404 } })
})

t.test('submit_transfer over a limit of a REQUEST_APPROVAL agent: pending approval is a result to poll, not an error', async (t) => {
  const w = await startMcpWorld(t, { overLimitAction: 'REQUEST_APPROVAL' })
  const client = await mcpClient(t, w.url, w.key)
  const draft = await client.callTool({
    name: 'create_transfer',
    arguments: { ...transferArgs(w.p, '12000', { confirm: false }), idempotencyKey: 'draft-big' },
  })
  const transferId = String(structured(draft).id)
  const submit = await client.callTool({ name: 'submit_transfer', arguments: { transferId, idempotencyKey: 'submit-big' } })
  t.notOk(submit.isError, 'not a retryable error')
  t.match(structured(submit), { transferId, pendingApproval: true, hint: /poll get_transfer/ })
  const read = await client.callTool({ name: 'get_transfer', arguments: { transferId } })
  t.match(structured(read), { status: 'PENDING_AUTHORIZATION', agentApprovalStatus: 'PENDING' })
  const approved = await w.h.request({
    method: 'POST',
    url: `/v1/transfers/${transferId}/agent-approval`,
    payload: { decision: 'APPROVE' },
  })
  t.equal(approved.statusCode, 200, 'the owner approves with a platform key')
  const after = await client.callTool({ name: 'get_transfer', arguments: { transferId } })
  t.equal(structured(after).agentApprovalStatus, 'APPROVED')
})
