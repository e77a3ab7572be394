// Transfers made with an agent key (issue 27, point 4), through HTTP: within the agent's scope and
// limits they are created with its agentId and reserve their amount; over a limit the answer is 403
// agent_limit_exceeded with the spec's denial body and nothing is created; outside its scope 403
// agent_key_not_allowed; 50 concurrent transfers never exceed a window together.
import t from 'tap'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { advanceUntil, eventually, fundIn } from '../transfers/transferWorld.js'
import { type AgentParties, agentParties, enableAgents, newAgent, newAgentKey } from './agentWorld.js'

const limits = { currency: 'USD', perTransaction: '10000', perDay: '25000', perMonth: '40000' }
const bodyOf = (p: AgentParties, sourceAmount: string, extra: Record<string, unknown> = {}) => ({
  source: { accountId: p.sourceAccountId },
  destination: { accountId: p.payeeId, paymentRail: 'ACH' },
  sourceAmount,
  ...extra,
})

t.test('within the limits: created with agentId and counted; over them: 403 with the denial body, nothing created', async (t) => {
  const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
  await enableAgents(h)
  const p = await agentParties(h)
  await fundIn(h, p.sourceAccountId, '5000.00')
  const agent = await newAgent(h, p, { limits })
  const { key } = await newAgentKey(h, agent.id)
  const create = (body: Record<string, unknown>) => h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: body })

  const first = await create(bodyOf(p, '5000'))
  t.equal(first.statusCode, 201, `created (${first.body.slice(0, 120)})`)
  t.match(first.json(), { agentId: agent.id, sourceCustomerId: p.customerId, sourceAmount: { currency: 'USD' } })
  const asOwner = await h.request({ method: 'GET', url: `/v1/transfers/${first.json().id}` })
  t.equal(asOwner.json().agentId, agent.id, 'the owner sees who made it')

  const tooBig = await create(bodyOf(p, '10001'))
  t.equal(tooBig.statusCode, 403)
  t.match(tooBig.json(), {
    error: 'Forbidden',
    code: 'agent_limit_exceeded',
    denial: {
      code: 'per_transaction_limit_exceeded',
      window: 'PER_TRANSACTION',
      limit: '100.00',
      attemptedAmount: '100.01',
      currency: 'USD',
    },
    hint: /smaller/,
  })
  t.notOk('used' in tooBig.json().denial, 'a per-transaction denial omits used')
  t.notOk('remaining' in tooBig.json().denial, 'and remaining')

  t.equal((await create(bodyOf(p, '10000'))).statusCode, 201)
  t.equal((await create(bodyOf(p, '10000'))).statusCode, 201, 'the day is full: 250.00 of 250.00')
  const overDay = await create(bodyOf(p, '1'))
  t.equal(overDay.statusCode, 403)
  t.match(overDay.json().denial, {
    window: 'PER_DAY',
    limit: '250.00',
    used: '250.00',
    remaining: '0.00',
    attemptedAmount: '0.01',
    resetsAt: /T00:00:00.000Z$/,
  })

  const listed = (await h.request({ method: 'GET', url: `/v1/transfers?agentId=${agent.id}` })).json()
  t.equal(listed.data.length, 3, 'the refused ones were never created')
  t.match((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/limits`, apiKey: key })).json(), {
    perDay: { used: '25000', remaining: '0' },
    perMonth: { used: '25000', remaining: '15000' },
  })
  const reached = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${agent.id}&eventTypes=agent.limit_reached` })).json(),
    (page: { data: unknown[] }) => page.data.length > 0,
    'agent.limit_reached',
  )
  t.equal(reached.data.length, 1, 'agent.limit_reached once, however many denials')

  const refused = await create(bodyOf(p, '100000'))
  t.equal(refused.json().denial.window, 'PER_TRANSACTION', 'checked per transaction first')
})

t.test('outside its scope: 403 agent_key_not_allowed naming each part; a PAYMENT_OPERATIONS agent creates nothing', async (t) => {
  const h = await startTestApp(t)
  await enableAgents(h)
  const p = await agentParties(h)
  const other = await agentParties(h)
  const agent = await newAgent(h, p, { limits })
  const { key } = await newAgentKey(h, agent.id)
  const create = (body: Record<string, unknown>) => h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: body })
  const cases: [string, Record<string, unknown>, string][] = [
    ['another payee', bodyOf(p, '100', { destination: { accountId: other.payeeId, paymentRail: 'ACH' } }), 'body.destination.accountId'],
    ['another source', bodyOf(p, '100', { source: { accountId: other.sourceAccountId } }), 'body.source.accountId'],
    ['a deposit', bodyOf(p, '100', { source: { paymentRail: 'ACH', currency: 'USD' } }), 'body.source.accountId'],
    [
      'a chain address',
      bodyOf(p, '100', { destination: { paymentRail: 'ETHEREUM', currency: 'USDC', toAddress: `0x${'1'.repeat(40)}` } }),
      'body.destination.toAddress',
    ],
    ['another customer', bodyOf(p, '100', { sourceCustomerId: other.customerId }), 'body.sourceCustomerId'],
  ]
  for (const [what, body, field] of cases) {
    const res = await create(body)
    t.equal(res.statusCode, 403, what)
    t.equal(res.json().code, 'agent_key_not_allowed', what)
    t.ok(
      res.json().details.some((d: { field: string }) => d.field === field),
      `${what}: names ${field}`,
    )
  }
  const ops = await newAgent(h, p, { limits, mcpRole: 'PAYMENT_OPERATIONS' })
  const opsKey = (await newAgentKey(h, ops.id)).key
  const res = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: opsKey, payload: bodyOf(p, '100') })
  t.equal(res.statusCode, 403)
  t.match(res.json(), { code: 'agent_key_not_allowed', message: /PAYMENT_OPERATIONS/ })
  t.equal((await h.request({ method: 'GET', url: '/v1/transfers' })).json().data.length, 0, 'nothing created')
})

t.test('a refused create after the reservation releases it; another currency is converted at a recorded rate', async (t) => {
  const h = await startTestApp(t)
  await enableAgents(h)
  const p = await agentParties(h)
  const agent = await newAgent(h, p, { limits })
  const { key } = await newAgentKey(h, agent.id)
  const poor = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: bodyOf(p, '5000') })
  t.equal(poor.statusCode, 422, 'no funds in the balance')
  t.equal(poor.json().code, 'insufficient_funds')
  t.match((await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/limits` })).json(), { perDay: { used: '0' } }, 'released')

  const eurAgent = await newAgent(h, p, {
    name: 'EUR',
    limits: { currency: 'EUR', perTransaction: '5000', perDay: '5000', perMonth: '5000' },
  })
  const eurKey = (await newAgentKey(h, eurAgent.id)).key
  await fundIn(h, p.sourceAccountId, '100.00')
  const converted = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: eurKey, payload: bodyOf(p, '1000') })
  t.equal(converted.statusCode, 201, `created (${converted.body.slice(0, 120)})`)
  const used = (await h.request({ method: 'GET', url: `/v1/agents/${eurAgent.id}/limits` })).json().perDay.used
  t.ok(Number(used) > 0 && used !== '1000', `10.00 USD counted as ${used} EUR cents`)
})

t.test('50 concurrent agent transfers never exceed a window together', async (t) => {
  const h = await startTestApp(t)
  await enableAgents(h)
  const p = await agentParties(h)
  await fundIn(h, p.sourceAccountId, '1000.00')
  const agent = await newAgent(h, p, { limits: { currency: 'USD', perTransaction: '1000', perDay: '23500', perMonth: '40000' } })
  const { key } = await newAgentKey(h, agent.id)
  const replies = await Promise.all(
    Array.from({ length: 50 }, () => h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: bodyOf(p, '1000') })),
  )
  const statuses = replies.map((r) => r.statusCode)
  t.same([...new Set(statuses)].sort(), [201, 403], 'each created or refused')
  const created = replies.filter((r) => r.statusCode === 201)
  const sum = created.reduce((total, r) => total + BigInt(r.json().sourceAmount.value), 0n)
  t.equal(created.length, 23, 'exactly as many as the day holds')
  t.ok(sum <= 23_500n, `${sum} moved of a 23 500 daily limit`)
  t.equal(sum, 23_000n, 'the sum of what went through')
  t.ok(
    replies.filter((r) => r.statusCode === 403).every((r) => r.json().code === 'agent_limit_exceeded'),
    'every refusal is the limit',
  )
  const listed = (await h.request({ method: 'GET', url: `/v1/transfers?agentId=${agent.id}&limit=100` })).json()
  t.equal(listed.data.length, 23, 'what went through is what the list holds')
})

t.test('concurrent creates the balance cannot pay: each refused one releases its reservation, the limits count what moved', async (t) => {
  const h = await startTestApp(t)
  await enableAgents(h)
  const p = await agentParties(h)
  // 100.00 in the balance for 30 concurrent transfers of 10.00: the balance check passes for more of them than their holds can.
  await fundIn(h, p.sourceAccountId, '100.00')
  const agent = await newAgent(h, p, { limits: { currency: 'USD', perTransaction: '1000', perDay: '50000', perMonth: '50000' } })
  const { key } = await newAgentKey(h, agent.id)
  const replies = await Promise.all(
    Array.from({ length: 30 }, () => h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: bodyOf(p, '1000') })),
  )
  const ids = replies.filter((r) => r.statusCode === 201).map((r) => r.json().id as string)
  t.ok(ids.length >= 10, `${ids.length} created`)
  t.ok(
    replies.every((r) => r.statusCode === 201 || r.json().code === 'insufficient_funds'),
    'each created, or refused for its funds',
  )
  const moving = async () => {
    const transfers = await Promise.all(ids.map(async (id) => (await h.request({ method: 'GET', url: `/v1/transfers/${id}` })).json()))
    return transfers.filter((x: { status: string }) => x.status !== 'FAILED' && x.status !== 'CANCELLED').length
  }
  const kept = await moving()
  t.equal(kept, 10, 'the balance paid for ten')
  const limits = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/agents/${agent.id}/limits` })).json(),
    (l: { perDay: { used: string } }) => l.perDay.used === String(kept * 1000),
    'the refused ones released',
  )
  t.equal(limits.perDay.used, '10000', 'used is what moved: 10 × 10.00')
  // The route releases before its 422 and the workflow release_agent_spend after the TransferFailed: once between them.
  const spend = await h.runtime.store.readStream(streams.agentSpend(agent.id))
  const releases = spend.filter((e) => e.type === 'AgentSpendReleased').map((e) => String(e.data.transferId))
  t.equal(releases.length, 20, 'each refused transfer released')
  t.equal(new Set(releases).size, releases.length, 'each once')
})

t.test('every transfer.* payload of an agent transfer carries its agentId', async (t) => {
  const h = await startTestApp(t, {}, { webhooks: { dispatcher: false } })
  await enableAgents(h)
  const p = await agentParties(h)
  await fundIn(h, p.sourceAccountId, '100.00')
  const agent = await newAgent(h, p, { limits })
  const { key } = await newAgentKey(h, agent.id)
  const created = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: bodyOf(p, '1000') })
  const id = created.json().id as string
  await advanceUntil(h, id, 'COMPLETED')
  const messages = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${id}` })).json(),
    (page: { data: { type: string }[] }) => page.data.some((m) => m.type === 'transfer.completed'),
    'transfer.completed',
  )
  const types = messages.data.map((m: { type: string }) => m.type)
  t.ok(types.length >= 3, `${types.join(', ')}`)
  const transfers = (messages.data as { type: string; payload: { data: { agentId: string } } }[]).filter((m) =>
    m.type.startsWith('transfer.'),
  )
  t.ok(transfers.length >= 4, 'created, processing, updated, completed')
  for (const m of transfers) t.equal(m.payload.data.agentId, agent.id, `${m.type} carries agentId`)
})
