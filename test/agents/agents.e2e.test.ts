// Agents through HTTP (issue 27, points 1-3): the organization's switch, create with every field,
// read, list with filters and paging, change, the status table (pause, resume, revoke: final), the
// public events, and agent keys: shown once, hashed, expiring, revocable, refused while the agent
// is PAUSED or REVOKED, and scoped to their own agent (every other operation is 403).
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { eventually } from '../transfers/transferWorld.js'
import { type AgentParties, agentBody, agentParties, enableAgents, newAgent, newAgentKey, reserveSpend } from './agentWorld.js'

t.test('agents are off until an operator enables them: create and key issuance are 403 agents_not_enabled', async (t) => {
  const h = await startTestApp(t)
  const p = await agentParties(h)
  const off = await h.request({ method: 'POST', url: '/v1/agents', payload: agentBody(p) })
  t.equal(off.statusCode, 403)
  t.match(off.json(), { code: 'agents_not_enabled', statusCode: 403 })
  t.equal((await h.request({ method: 'GET', url: '/v1/agents' })).json().total, 0, 'nothing created')

  await enableAgents(h)
  const agent = await newAgent(h, p)
  const { key } = await newAgentKey(h, agent.id)
  t.equal((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}`, apiKey: key })).statusCode, 200, 'the key works')

  await enableAgents(h, h.org.organizationId, false)
  const issue = await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/keys`, payload: {} })
  t.equal(issue.statusCode, 403)
  t.equal(issue.json().code, 'agents_not_enabled', 'no key issued while agents are off')
  const refused = await h.request({ method: 'GET', url: `/v1/agents/${agent.id}`, apiKey: key })
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'agents_not_enabled', 'an agent key stops working while agents are off')
  t.equal((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}` })).statusCode, 200, 'the platform still reads it')
})

t.test('create with every field, read, list with filters and paging', async (t) => {
  const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
  await enableAgents(h)
  const p = await agentParties(h)
  const res = await h.request({ method: 'POST', url: '/v1/agents', payload: agentBody(p, { mcpRole: 'PAYMENT_OPERATIONS' }) })
  t.equal(res.statusCode, 201)
  const agent = res.json()
  t.match(agent, {
    id: /^agt_[0-9a-z]{26}$/,
    name: 'Payroll bot',
    description: 'Pays the monthly contractors',
    customerId: p.customerId,
    sourceAccountId: p.sourceAccountId,
    allowedDestinationAccountIds: [p.payeeId],
    limits: { currency: 'USD', perTransaction: '10000', perDay: '50000', perMonth: '200000' },
    overLimitAction: 'DENY',
    status: 'ACTIVE',
    metadata: { team: 'finance' },
    mcpRole: 'PAYMENT_OPERATIONS',
  })
  t.equal(agent.createdAt, agent.updatedAt)
  t.same((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}` })).json(), agent, 'read back as created')

  const minimal = await h.request({
    method: 'POST',
    url: '/v1/agents',
    payload: {
      name: 'Minimal',
      customerId: p.customerId,
      sourceAccountId: p.sourceAccountId,
      limits: { currency: 'USD', perTransaction: '1', perDay: '1', perMonth: '1' },
    },
  })
  t.equal(minimal.statusCode, 201)
  t.match(minimal.json(), { description: '', allowedDestinationAccountIds: [], overLimitAction: 'DENY', mcpRole: 'PAYMENT', metadata: {} })

  const other = await agentParties(h)
  const third = await newAgent(h, other)
  const list = (q: string) => h.request({ method: 'GET', url: `/v1/agents${q}` }).then((r) => r.json())
  t.equal((await list('')).total, 3)
  t.same(
    (await list(`?customerId=${p.customerId}`)).data.map((a: { id: string }) => a.id),
    [minimal.json().id, agent.id],
    'newest first, one customer',
  )
  t.same(
    (await list('?mcpRole=PAYMENT_OPERATIONS')).data.map((a: { id: string }) => a.id),
    [agent.id],
  )
  t.same(
    (await list(`?sourceAccountId=${other.sourceAccountId}`)).data.map((a: { id: string }) => a.id),
    [third.id],
  )
  const first = await list('?page_size=1')
  const second = await list(`?page_size=1&starting_after=${first.data[0].id}`)
  t.equal(second.offset, 1)
  t.equal(second.data[0].id, minimal.json().id, 'the cursor pages on')
  t.equal((await h.request({ method: 'GET', url: `/v1/agents?customerId=cus_${'0'.repeat(26)}` })).statusCode, 404)
  const scoped = await h.request({ method: 'GET', url: '/v1/agents', headers: { 'x-on-behalf-of': other.customerId } })
  t.same(
    scoped.json().data.map((a: { id: string }) => a.id),
    [third.id],
    'X-On-Behalf-Of narrows the list to that customer',
  )

  // The webhook subscriber makes messages from the events as it reaches them.
  const messages = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${agent.id}` })).json(),
    (page: { data: unknown[] }) => page.data.length > 0,
    'agent.created as a message',
  )
  t.match(messages.data, [{ type: 'agent.created', payload: { data: { id: agent.id, status: 'ACTIVE', customerId: p.customerId } } }])
})

t.test('refused creates change nothing: bad limits, foreign or unfit accounts', async (t) => {
  const h = await startTestApp(t)
  await enableAgents(h)
  const p = await agentParties(h)
  const post = (payload: Record<string, unknown>) => h.request({ method: 'POST', url: '/v1/agents', payload })
  const inverted = await post(agentBody(p, { limits: { currency: 'USD', perTransaction: '60000', perDay: '50000', perMonth: '200000' } }))
  t.equal(inverted.statusCode, 400, 'perTransaction above perDay')
  t.match(JSON.stringify(inverted.json().details), /perTransaction <= perDay <= perMonth/)
  t.equal((await post(agentBody(p, { limits: { currency: 'XYZ', perTransaction: '1', perDay: '1', perMonth: '1' } }))).statusCode, 400)
  t.equal((await post(agentBody(p, { overLimitAction: 'MAYBE' }))).statusCode, 400)
  t.equal((await post(agentBody(p, { allowedDestinationAccountIds: [p.payeeId, p.payeeId] }))).statusCode, 400, 'a repeated payee')

  const other = await agentParties(h)
  const foreignSource = await post(agentBody(p, { sourceAccountId: other.sourceAccountId }))
  t.equal(foreignSource.statusCode, 422)
  t.match(foreignSource.json(), { code: 'agent_account_not_allowed', details: [{ field: 'body.sourceAccountId' }] })
  const foreignPayee = await post(agentBody(p, { allowedDestinationAccountIds: [p.payeeId, other.payeeId] }))
  t.match(foreignPayee.json(), { code: 'agent_account_not_allowed', details: [{ field: 'body.allowedDestinationAccountIds.1' }] })
  const bankAsSource = await post(agentBody(p, { sourceAccountId: p.payeeId, allowedDestinationAccountIds: [] }))
  t.match(bankAsSource.json(), { code: 'agent_account_not_allowed', details: [{ field: 'body.sourceAccountId' }] })
  t.equal((await post(agentBody(p, { customerId: `cus_${'1'.repeat(26)}` }))).statusCode, 404, 'an unknown customer')

  const b = await h.newOrganization('B')
  await enableAgents(h, b.organizationId)
  const fromB = await h.request({ method: 'POST', url: '/v1/agents', payload: agentBody(p), apiKey: b.apiKey })
  t.equal(fromB.statusCode, 404, "another organization's customer and accounts do not exist for B")
  t.equal((await h.request({ method: 'GET', url: '/v1/agents' })).json().total, 0, 'nothing was created')
})

t.test('change, pause, resume, revoke: the status table, REVOKED final, every change an event', async (t) => {
  const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
  await enableAgents(h)
  const p: AgentParties = await agentParties(h)
  const agent = await newAgent(h, p)
  const url = `/v1/agents/${agent.id}`
  const patch = (payload: Record<string, unknown>) => h.request({ method: 'PATCH', url, payload })
  const limits = { currency: 'USD', perTransaction: '20000', perDay: '60000', perMonth: '300000' }
  const changed = await patch({ limits, name: 'Renamed' })
  t.equal(changed.statusCode, 200)
  t.match(changed.json(), { limits, name: 'Renamed', customerId: p.customerId, status: 'ACTIVE' })
  t.not(changed.json().updatedAt, changed.json().createdAt)
  const same = await patch({ name: 'Renamed' })
  t.equal(same.json().updatedAt, changed.json().updatedAt, 'an unchanged body changes nothing')
  t.equal((await patch({ customerId: p.customerId })).statusCode, 400, 'the customer is fixed')
  t.equal((await patch({})).statusCode, 400, 'nothing to change')

  const action = (name: string, payload?: Record<string, unknown>) =>
    h.request({ method: 'POST', url: `${url}/${name}`, ...(payload ? { payload } : {}) })
  t.equal((await action('pause', { reason: 'audit' })).json().status, 'PAUSED')
  t.equal((await action('pause')).json().status, 'PAUSED', 'pausing a PAUSED agent answers it')
  t.equal((await action('resume')).json().status, 'ACTIVE')
  t.equal((await action('resume')).json().status, 'ACTIVE', 'resuming an ACTIVE agent answers it')
  t.equal((await action('revoke', { reason: 'contract ended' })).json().status, 'REVOKED')
  t.equal((await action('revoke')).json().status, 'REVOKED', 'revoking again answers it')
  for (const [what, res] of [
    ['resume', await action('resume')],
    ['pause', await action('pause')],
    ['change', await patch({ name: 'Back' })],
    ['a key', await h.request({ method: 'POST', url: `${url}/keys`, payload: {} })],
  ] as const) {
    t.equal(res.statusCode, 409, `${what} of a REVOKED agent`)
    t.equal(res.json().code, 'agent_invalid_transition')
  }
  t.equal((await h.request({ method: 'POST', url: `/v1/agents/agt_${'0'.repeat(26)}/pause` })).statusCode, 404)

  const page = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${agent.id}` })).json(),
    (p: { data: { type: string }[] }) => p.data.length >= 5,
    'five agent messages',
  )
  const types = page.data.map((m: { type: string }) => m.type).reverse()
  t.same(types, ['agent.created', 'agent.updated', 'agent.updated', 'agent.updated', 'agent.revoked'], 'one event per change, oldest first')
  const updates = (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${agent.id}&eventTypes=agent.updated` })).json().data
  t.match(updates.at(-1).payload.data, { id: agent.id, changed: ['name', 'limits'], limits, name: 'Renamed' })
  t.match(updates[1].payload.data, { id: agent.id, changed: ['status'], status: 'PAUSED', reason: 'audit' })
})

t.test('agent keys: shown once, listed without secrets, scoped, refused when paused, revoked or expired', async (t) => {
  let now = new Date()
  const h = await startTestApp(t, {}, { clock: () => now })
  await enableAgents(h)
  const p = await agentParties(h)
  const agent = await newAgent(h, p)
  const other = await newAgent(h, p, { name: 'Other' })
  const issued = await newAgentKey(h, agent.id)
  t.match(issued, { id: /^agk_/, agentId: agent.id, key: /^sk_sandbox_agent_[0-9A-Za-z]{32}$/, status: 'ACTIVE', expiresAt: null })
  t.equal(issued.key.slice(-4), (issued as unknown as { last4: string }).last4)
  const listed = (await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/keys` })).json()
  t.equal(listed.total, 1)
  t.notOk(JSON.stringify(listed).includes(issued.key), 'the list never shows the key')
  t.notOk('key' in listed.data[0])

  const as = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    h.request({ method, url, apiKey: issued.key, ...(payload ? { payload } : {}) })
  t.equal((await as('GET', `/v1/agents/${agent.id}`)).statusCode, 200, 'its own agent')
  const head = (url: string) => h.request({ method: 'HEAD', url, apiKey: issued.key })
  t.equal((await head(`/v1/agents/${agent.id}`)).statusCode, 200, 'HEAD where GET is allowed')
  t.equal((await head(`/v1/customers/${p.customerId}`)).statusCode, 403, 'HEAD where GET is not')
  for (const [method, url, payload] of [
    ['GET', `/v1/agents/${other.id}`],
    ['GET', '/v1/agents'],
    ['GET', `/v1/customers/${p.customerId}`],
    ['GET', '/v1/accounts'],
    ['PATCH', `/v1/agents/${agent.id}`, { limits: { currency: 'USD', perTransaction: '9', perDay: '9', perMonth: '9' } }],
    ['PATCH', `/v1/agents/${agent.id}`, { allowedDestinationAccountIds: [] }],
    ['POST', `/v1/agents/${agent.id}/keys`, {}],
    ['POST', `/v1/agents/${agent.id}/resume`],
  ] as const) {
    const res = await as(method, url, payload)
    t.equal(res.statusCode, 403, `${method} ${url} with an agent key`)
    t.match(res.json(), { error: 'Forbidden', code: 'agent_key_not_allowed', statusCode: 403 })
  }
  const elsewhere = await h.request({
    method: 'GET',
    url: `/v1/agents/${agent.id}`,
    apiKey: issued.key,
    headers: { 'x-on-behalf-of': (await agentParties(h)).customerId },
  })
  t.equal(elsewhere.statusCode, 403, 'X-On-Behalf-Of another customer')

  await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/pause` })
  const paused = await as('GET', `/v1/agents/${agent.id}`)
  t.equal(paused.statusCode, 403)
  t.equal(paused.json().code, 'agent_paused')
  await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/resume` })
  t.equal((await as('GET', `/v1/agents/${agent.id}`)).statusCode, 200, 'works again once resumed')

  const revoked = await h.request({ method: 'DELETE', url: `/v1/agents/${agent.id}/keys/${issued.id}` })
  t.equal(revoked.statusCode, 200)
  t.match(revoked.json(), { id: issued.id, status: 'REVOKED', revokedAt: /Z$/ })
  t.equal((await as('GET', `/v1/agents/${agent.id}`)).statusCode, 401, 'a revoked key is an invalid key')
  t.equal((await h.request({ method: 'DELETE', url: `/v1/agents/${agent.id}/keys/${issued.id}` })).statusCode, 404, 'revoked already')

  const expiring = await newAgentKey(h, agent.id, { expiresAt: new Date(now.getTime() + 60_000).toISOString() })
  t.equal((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}`, apiKey: expiring.key })).statusCode, 200)
  now = new Date(now.getTime() + 61_000)
  t.equal((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}`, apiKey: expiring.key })).statusCode, 401, 'past its expiry')
  t.match((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/keys` })).json().data, [
    { id: expiring.id, status: 'EXPIRED' },
    { status: 'REVOKED' },
  ])
  const past = await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/keys`, payload: { expiresAt: '2020-01-01T00:00:00Z' } })
  t.equal(past.statusCode, 422)
  t.equal(past.json().code, 'invalid_expiry')

  const last = await newAgentKey(h, agent.id)
  await h.request({ method: 'POST', url: `/v1/agents/${agent.id}/revoke` })
  t.equal((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}`, apiKey: last.key })).statusCode, 401, "a REVOKED agent's key")
  t.match((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/keys` })).json().data[0], { id: last.id, status: 'REVOKED' })
})

t.test("limits: each window's limit, use, remainder and reset, read by the owner and the agent's own key", async (t) => {
  let now = new Date('2026-11-28T22:00:00.000Z')
  const h = await startTestApp(t, {}, { clock: () => now, webhooks: { dispatcher: false } })
  await enableAgents(h)
  const p = await agentParties(h)
  const agent = await newAgent(h, p)
  const other = await newAgent(h, p, { name: 'Other' })
  const { key } = await newAgentKey(h, agent.id)
  const read = (apiKey = h.org.apiKey, id = agent.id) => h.request({ method: 'GET', url: `/v1/agents/${id}/limits`, apiKey })
  t.same((await read()).json(), {
    agentId: agent.id,
    currency: 'USD',
    overLimitAction: 'DENY',
    perTransaction: { limit: '10000' },
    perDay: { limit: '50000', used: '0', remaining: '50000', resetsAt: '2026-11-29T00:00:00.000Z' },
    perMonth: { limit: '200000', used: '0', remaining: '200000', resetsAt: '2026-12-01T00:00:00.000Z' },
  })
  t.same((await read(key)).json(), (await read()).json(), "the agent's own key reads the same")
  t.equal((await read(key, other.id)).statusCode, 403, "not another agent's")

  // Spend recorded as the transfer routes will record it (issue 27, point 4): reservations on the agent's spend stream.
  const reserve = (transferId: string, amountMinor: string) => reserveSpend(h, agent.id, transferId, amountMinor, now)
  for (let i = 0; i < 5; i++) await reserve(`tfr_${i}`, '10000')
  const full = (await read()).json()
  t.match(full, { perDay: { used: '50000', remaining: '0' }, perMonth: { used: '50000', remaining: '150000' } })
  now = new Date('2026-11-29T00:00:00.000Z')
  t.match((await read()).json(), {
    perDay: { used: '0', remaining: '50000', resetsAt: '2026-11-30T00:00:00.000Z' },
    perMonth: { used: '50000' },
  })
  const reached = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${agent.id}&eventTypes=agent.limit_reached` })).json(),
    (page: { data: unknown[] }) => page.data.length > 0,
    'agent.limit_reached as a webhook message',
  )
  t.match(reached.data, [
    {
      type: 'agent.limit_reached',
      payload: {
        data: { id: agent.id, window: 'PER_DAY', currency: 'USD', limit: '50000', used: '50000', resetsAt: '2026-11-29T00:00:00.000Z' },
      },
    },
  ])
  t.equal(reached.data.length, 1, 'once for the window')
})
