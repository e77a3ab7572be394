// Agent drafts and their owner's approval (issue 27, points 4 and 5), through HTTP: a REQUEST_APPROVAL
// agent's draft over a limit, submitted by its key, waits in PENDING_AUTHORIZATION (403
// agent_approval_required with the denial); the owner approves (reserved, then funded) or declines
// (cancelled); a repeat is idempotent, a conflicting decision 409; an unanswered approval EXPIRES on
// the test clock; a DENY agent's draft over a limit stays a DRAFT; a create with confirm over a limit
// is always denied; agent keys read and list their own agent's transfers only, and never approve.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { startTestApp } from '../harness/testApp.js'
import { eventually, fundIn } from '../transfers/transferWorld.js'
import { type AgentParties, agentParties, enableAgents, newAgent, newAgentKey } from './agentWorld.js'

let now = new Date()
const h = await startTestApp(t, {}, { clock: () => now, webhooks: { dispatcher: false } })
await enableAgents(h)
const p = await agentParties(h)
await fundIn(h, p.sourceAccountId, '5000.00')
const limits = { currency: 'USD', perTransaction: '10000', perDay: '25000', perMonth: '40000' }
const log = {
  error: (obj: object, msg: string) => {
    throw new Error(`${msg}: ${JSON.stringify(obj)}`)
  },
}

type Json = Record<string, unknown> & { id: string; status: string; code?: string }
const bodyOf = (parties: AgentParties, sourceAmount: string, extra: Record<string, unknown> = {}) => ({
  source: { accountId: parties.sourceAccountId },
  destination: { accountId: parties.payeeId, paymentRail: 'ACH' },
  sourceAmount,
  ...extra,
})

async function agentWithKey(extra: Record<string, unknown> = {}) {
  const agent = await newAgent(h, p, { limits, overLimitAction: 'REQUEST_APPROVAL', ...extra })
  const { key } = await newAgentKey(h, agent.id)
  return { agentId: agent.id, key }
}

async function draftBy(key: string, sourceAmount: string): Promise<string> {
  const res = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: key, payload: bodyOf(p, sourceAmount, { confirm: false }) })
  if (res.statusCode !== 201) throw new Error(`draft: ${res.statusCode} ${res.body}`)
  t.equal(res.json<Json>().status, 'DRAFT')
  return res.json<Json>().id
}

const submit = (id: string, apiKey?: string) =>
  h.request({ method: 'POST', url: `/v1/transfers/${id}/submit`, ...(apiKey ? { apiKey } : {}) })
const decide = (id: string, decision: string, note?: string, apiKey?: string) =>
  h.request({
    method: 'POST',
    url: `/v1/transfers/${id}/agent-approval`,
    payload: { decision, ...(note === undefined ? {} : { note }) },
    ...(apiKey ? { apiKey } : {}),
  })
const read = async (id: string) => (await h.request({ method: 'GET', url: `/v1/transfers/${id}` })).json<Json>()
const limitsOf = async (agentId: string) => (await h.request({ method: 'GET', url: `/v1/agents/${agentId}/limits` })).json<Json>()

t.test('over a limit, a REQUEST_APPROVAL agent’s draft waits; approved, it proceeds and counts', async (t) => {
  const { agentId, key } = await agentWithKey()
  const id = await draftBy(key, '12000')
  t.match(await limitsOf(agentId), { perDay: { used: '0' } }, 'a DRAFT reserves nothing')

  const waiting = await submit(id, key)
  t.equal(waiting.statusCode, 403)
  t.match(waiting.json(), {
    code: 'agent_approval_required',
    denial: { window: 'PER_TRANSACTION', limit: '100.00', attemptedAmount: '120.00', currency: 'USD' },
    hint: new RegExp(`GET /v1/transfers/${id}`),
  })
  t.match(await read(id), {
    status: 'PENDING_AUTHORIZATION',
    agentId,
    agentApprovalStatus: 'PENDING',
    agentApproval: { status: 'PENDING', decidedAt: null, decidedBy: null, note: null },
  })
  const approval = (await read(id)).agentApproval as { requestedAt: string; expiresAt: string }
  t.equal(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt), 24 * 60 * 60 * 1000, 'expires after 24 hours')
  const pending = (await h.request({ method: 'GET', url: `/v1/transfers?agentApprovalStatus=PENDING&agentId=${agentId}` })).json()
  t.same(
    pending.data.map((x: Json) => x.id),
    [id],
    'listed by agentApprovalStatus',
  )
  t.equal((await submit(id, key)).statusCode, 200, 'a second submit answers it as it is')
  t.equal((await read(id)).status, 'PENDING_AUTHORIZATION')

  const asAgent = await decide(id, 'APPROVE', undefined, key)
  t.equal(asAgent.statusCode, 403, 'an agent key never approves')
  t.equal(asAgent.json().code, 'agent_key_not_allowed')

  const approved = await decide(id, 'APPROVE', 'Contractor invoice checked')
  t.equal(approved.statusCode, 200, approved.body.slice(0, 200))
  t.match(approved.json(), {
    agentApprovalStatus: 'APPROVED',
    agentApproval: { status: 'APPROVED', decidedBy: h.org.keyId, note: 'Contractor invoice checked', decidedAt: /Z$/ },
  })
  t.ok(['PENDING', 'PROCESSING'].includes(approved.json().status), `proceeds (${approved.json().status})`)
  t.match(await limitsOf(agentId), { perDay: { used: '12000' } }, 'an approved amount counts in the windows')

  const again = await decide(id, 'APPROVE', 'Contractor invoice checked')
  t.equal(again.statusCode, 200, 'the same decision again is idempotent')
  t.equal(again.json().agentApprovalStatus, 'APPROVED')
  const conflicting = await decide(id, 'DECLINE')
  t.equal(conflicting.statusCode, 409)
  t.equal(conflicting.json().code, 'agent_approval_already_decided')
  t.match(await limitsOf(agentId), { perDay: { used: '12000' } }, 'reserved once')

  const updates = await eventually(
    async () => (await h.request({ method: 'GET', url: `/v1/webhooks/messages?tag=${id}&eventTypes=transfer.updated` })).json(),
    (page: { data: { payload: { data: Json } }[] }) => page.data.some((m) => m.payload.data.agentApprovalStatus === 'APPROVED'),
    'transfer.updated with agentApprovalStatus APPROVED',
  )
  for (const m of updates.data as { payload: { data: Json } }[]) t.equal(m.payload.data.agentId, agentId, 'agentId on the payload')
})

t.test('declined: CANCELLED, nothing reserved; a conflicting approve is 409', async (t) => {
  const { agentId, key } = await agentWithKey()
  const id = await draftBy(key, '15000')
  t.equal((await submit(id, key)).statusCode, 403)
  const declined = await decide(id, 'DECLINE', 'Not this month')
  t.equal(declined.statusCode, 200)
  t.match(declined.json(), { status: 'CANCELLED', agentApprovalStatus: 'DECLINED', agentApproval: { note: 'Not this month' } })
  t.equal((await decide(id, 'DECLINE', 'Not this month')).statusCode, 200, 'idempotent')
  const approve = await decide(id, 'APPROVE')
  t.equal(approve.statusCode, 409)
  t.equal(approve.json().code, 'agent_approval_already_decided')
  t.match(await limitsOf(agentId), { perDay: { used: '0' }, perMonth: { used: '0' } })
})

t.test('unanswered for 24 hours: EXPIRED (not a decline), cancelled; a late approval is 409', async (t) => {
  const { key } = await agentWithKey()
  const id = await draftBy(key, '15000')
  t.equal((await submit(id, key)).statusCode, 403)
  const last = (await h.runtime.store.readStream(`transfer-${id}`)).at(-1)
  await h.runtime.runner.waitFor(last?.position, 10_000)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => now })
  t.equal((await read(id)).agentApprovalStatus, 'PENDING', 'not before its time')
  now = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => now })
  const expired = await eventually(
    () => read(id),
    (x) => x.status === 'CANCELLED',
    'expired',
  )
  t.match(expired, { agentApprovalStatus: 'EXPIRED', agentApproval: { status: 'EXPIRED', decidedBy: null } })
  const late = await decide(id, 'APPROVE')
  t.equal(late.statusCode, 409)
  t.equal(late.json().code, 'agent_approval_already_decided')
  now = new Date()
})

t.test('a DENY agent’s draft over a limit stays a DRAFT; a confirmed create over a limit is always denied', async (t) => {
  const deny = await agentWithKey({ overLimitAction: 'DENY' })
  const id = await draftBy(deny.key, '12000')
  const refused = await submit(id, deny.key)
  t.equal(refused.statusCode, 403)
  t.equal(refused.json().code, 'agent_limit_exceeded')
  t.match(await read(id), { status: 'DRAFT', agentApprovalStatus: null })

  const approving = await agentWithKey()
  const created = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: approving.key, payload: bodyOf(p, '12000') })
  t.equal(created.statusCode, 403)
  t.equal(created.json().code, 'agent_limit_exceeded', 'never sent for approval')
  const within = await draftBy(approving.key, '5000')
  const submitted = await submit(within, approving.key)
  t.equal(submitted.statusCode, 200)
  t.ok(['PENDING', 'PROCESSING'].includes(submitted.json().status))
  t.equal(submitted.json().agentApprovalStatus, null, 'no approval was needed')
  t.match(await limitsOf(approving.agentId), { perDay: { used: '5000' } }, 'reserved at submit')
  const noApproval = await decide(within, 'APPROVE')
  t.equal(noApproval.statusCode, 409)
  t.equal(noApproval.json().code, 'transfer_not_awaiting_agent_approval')
})

t.test('agent keys: their own transfers only; PAYMENT_OPERATIONS never submits', async (t) => {
  const mine = await agentWithKey()
  const other = await agentWithKey()
  const id = await draftBy(mine.key, '100')
  const theirs = await draftBy(other.key, '100')
  t.equal((await h.request({ method: 'GET', url: `/v1/transfers/${id}`, apiKey: mine.key })).statusCode, 200)
  t.equal((await h.request({ method: 'GET', url: `/v1/transfers/${theirs}`, apiKey: mine.key })).statusCode, 404)
  const listed = (await h.request({ method: 'GET', url: '/v1/transfers', apiKey: mine.key })).json()
  t.same(
    listed.data.map((x: Json) => x.id),
    [id],
    'the list shows its own agent’s transfers',
  )
  const foreign = await submit(theirs, mine.key)
  t.equal(foreign.statusCode, 403)
  t.equal(foreign.json().code, 'agent_key_not_allowed')
  t.equal((await read(theirs)).status, 'DRAFT')

  const ops = await newAgent(h, p, { limits, mcpRole: 'PAYMENT_OPERATIONS' })
  const { key: opsKey } = await newAgentKey(h, ops.id)
  const asOps = await h.request({ method: 'POST', url: '/v1/transfers', apiKey: opsKey, payload: bodyOf(p, '100', { confirm: false }) })
  t.equal(asOps.statusCode, 403)
  t.equal(asOps.json().code, 'agent_key_not_allowed')
})
