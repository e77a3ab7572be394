// GET /v1/audit/resources/{id}/events through HTTP on a real Postgres: a resource's events in order
// with where they stand (stream, revision, position, hash) and who caused them (actor, key, request,
// idempotency key, causation, correlation); secrets redacted, sensitive fields masked, an erased
// customer's [erased]; several streams of one id merged; cursor paging; auditor keys read it, agent
// keys and other organizations do not.
import t from 'tap'
import { eraseCustomerByOperator } from '../../commands/customers/eraseCustomer.js'
import { auditorKeyOf } from './auditorKey.js'
import { type ApiReply, jsonOf } from '../proofs/fixtures/client.js'
import { openProofApp } from '../proofs/fixtures/openApp.js'
import { HOOK_URL, createWorld } from '../proofs/fixtures/world.js'

type AuditEvent = {
  id: string
  stream: string
  type: string
  revision: number
  position: string
  recordedAt: string
  hash: string | null
  schemaVersion: number
  data: Record<string, unknown>
  metadata: Record<string, string | null>
}
type HistoryPage = {
  has_more: boolean
  limit: number
  url: string
  data: AuditEvent[]
  next_cursor: string | null
  page_next: string | null
}

const proof = await openProofApp(t)
const { h, send } = proof
const apiKey = h.org.apiKey
const world = createWorld(send, apiKey)
const auditor = await auditorKeyOf(h, 'test')

const get = (url: string, key = apiKey, headers: Record<string, string> = {}) => send({ method: 'GET', url, apiKey: key, headers })
const pageOf = (reply: ApiReply, what: string): HistoryPage => {
  if (reply.statusCode !== 200) throw new Error(`${what}: ${reply.statusCode} ${reply.body.slice(0, 300)}`)
  return jsonOf<HistoryPage>(reply, what)
}
const historyUrl = (id: string) => `/v1/audit/resources/${id}/events`

/** Waits until the projectors and workflows have handled every event, workflows' own included. */
async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const head = await proof.events.head()
    if (!(await h.runtime.runner.waitFor(head || undefined, 30_000))) throw new Error(`the read side did not reach ${head} in 30 s`)
    if ((await proof.events.head()) === head) return
  }
  throw new Error('the log did not settle')
}

/** Every event of the history, following page_next from pages of `limit`. */
async function followed(id: string, limit: number): Promise<{ events: AuditEvent[]; pages: number }> {
  const events: AuditEvent[] = []
  let next: string | null = `${historyUrl(id)}?limit=${limit}`
  let pages = 0
  for (; next !== null && pages < 100; pages++) {
    const page = pageOf(await get(next), next)
    t.ok(page.data.length <= limit, `a page of at most ${limit}`)
    events.push(...page.data)
    t.equal(page.has_more, page.next_cursor !== null, 'has_more says whether a cursor follows')
    next = page.page_next
  }
  return { events, pages }
}

t.test('an endpoint: every event in order, with who caused it, its secret redacted', async (t) => {
  const created = await send({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    apiKey,
    payload: { url: HOOK_URL, description: 'audited' },
    headers: { 'idempotency-key': 'audit-create-1', 'x-correlation-id': 'corr-audit-1' },
  })
  t.equal(created.statusCode, 201)
  const id = jsonOf<{ id: string }>(created, 'create').id
  const updated = await send({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, apiKey, payload: { description: 'changed' } })
  t.equal(updated.statusCode, 200)
  const rotated = await send({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/secret/rotate`, apiKey })
  t.equal(rotated.statusCode, 200)

  const reply = await get(historyUrl(id))
  const page = pageOf(reply, 'history')
  t.same(
    page.data.map((e) => e.type),
    ['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRotated'],
  )
  t.same(
    page.data.map((e) => [e.stream, e.revision]),
    [0, 1, 2].map((r) => [`webhook_endpoint-${id}`, r]),
  )
  t.match(page, { has_more: false, limit: 100, url: historyUrl(id), next_cursor: null, page_next: null })
  t.ok(
    page.data.every((e, i) => i === 0 || e.position > page.data[i - 1]!.position),
    'positions rise',
  )
  for (const e of page.data) {
    t.match(e.id, /^[0-9a-f-]{36}$/)
    t.match(e.hash, /^[0-9a-f]{64}$/, 'its link in the hash chain')
    t.equal(new Date(e.recordedAt).toISOString(), e.recordedAt)
    t.equal(e.schemaVersion, 1)
    t.equal(e.metadata.actor, h.org.keyId, 'the key is the actor')
    t.equal(e.metadata.keyId, h.org.keyId)
    t.equal(e.metadata.causationId, e.metadata.requestId, 'a request causes its own events')
    t.equal(e.metadata.onBehalfOf, null)
    t.equal(e.metadata.commandId, null)
  }
  const [first, second, third] = page.data
  t.same(first!.metadata, {
    actor: h.org.keyId,
    keyId: h.org.keyId,
    requestId: created.headers['x-request-id'],
    idempotencyKey: 'audit-create-1',
    causationId: created.headers['x-request-id'],
    correlationId: 'corr-audit-1',
    onBehalfOf: null,
    commandId: null,
  })
  t.equal(second!.metadata.requestId, updated.headers['x-request-id'])
  t.equal(second!.metadata.idempotencyKey, null)
  t.equal(second!.metadata.correlationId, updated.headers['x-request-id'], 'no X-Correlation-Id: the request is its correlation')
  t.equal(third!.metadata.requestId, rotated.headers['x-request-id'])
  t.match(first!.data, { endpointId: id, url: HOOK_URL, description: 'audited', secret: '[redacted]' })
  t.match(third!.data, { endpointId: id, secret: '[redacted]' })
  t.notOk(reply.body.includes('whsec_'), 'no signing secret anywhere')

  const asAuditor = await get(historyUrl(id), auditor.apiKey)
  t.equal(asAuditor.statusCode, 200, 'an auditor key reads it')
  t.same(JSON.parse(asAuditor.body), JSON.parse(reply.body), 'the same answer as the full key')
})

t.test('a customer: sensitive fields masked, then [erased] once its data is erased', async (t) => {
  const created = await send({
    method: 'POST',
    url: '/v1/customers/individuals',
    apiKey,
    payload: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+14155550199', countryCode: 'US' },
  })
  t.equal(created.statusCode, 201)
  const id = jsonOf<{ id: string }>(created, 'create').id
  const before = await get(historyUrl(id))
  const [event] = pageOf(before, 'before').data
  t.equal(event!.type, 'CustomerCreated')
  t.equal(event!.data.phone, '********0199', 'the phone to its last four')
  t.notOk(before.body.includes('+14155550199'))

  await eraseCustomerByOperator(
    { commands: h.runtime.commands, protection: h.runtime.protection },
    { customerId: id, reason: 'audit test', erasedBy: 'test', actor: 'cli:test' },
  )
  const after = pageOf(await get(historyUrl(id)), 'after')
  t.same(
    after.data.map((e) => e.type),
    ['CustomerCreated', 'CustomerDataErased'],
  )
  t.equal(after.data[0]!.data.phone, '[erased]', 'a shredded key leaves [erased]')
  t.equal(after.data[0]!.hash, event!.hash, 'the stored event is unchanged: the same hash')
  t.match(after.data[1]!.metadata, { actor: 'cli:test', keyId: null })
})

t.test('an FX trade: its trade and transfer streams merged in log order; workflow events name no key', async (t) => {
  const tradeId = await world.freshProcessingTrade()
  await settle()
  const whole = pageOf(await get(`${historyUrl(tradeId)}?limit=1000`), 'whole')
  t.equal(whole.has_more, false)
  const streams = [...new Set(whole.data.map((e) => e.stream))].sort()
  t.same(streams, [`fx_trade-${tradeId}`, `transfer-${tradeId}`], 'both streams of the id')
  t.ok(
    whole.data.every((e, i) => i === 0 || e.position > whole.data[i - 1]!.position),
    'in log order',
  )
  for (const stream of streams) {
    const revisions = whole.data.filter((e) => e.stream === stream).map((e) => e.revision)
    t.same(
      revisions,
      revisions.map((_, i) => i),
      `${stream}: every revision once, in order`,
    )
  }
  const byWorkflow = whole.data.filter((e) => e.metadata.actor?.startsWith('system:workflow:'))
  t.ok(byWorkflow.length > 0, 'the transfer view is moved by a workflow')
  const ids = new Set(whole.data.map((e) => e.id))
  for (const e of byWorkflow) {
    t.equal(e.metadata.keyId, null, `${e.type}: no key`)
    t.ok(e.metadata.commandId, `${e.type}: its command id`)
    t.ok(ids.has(e.metadata.causationId ?? ''), `${e.type}: caused by an event of this history`)
  }

  for (const limit of [1, 2, 3]) {
    const paged = await followed(tradeId, limit)
    t.same(paged.events, whole.data, `pages of ${limit} (${paged.pages}) list exactly the whole page`)
  }
})

t.test('paging: bounded, and a cursor only of its own list', async (t) => {
  const id = await world.endpoint('history-paging')
  for (let i = 0; i < 4; i++) await send({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/secret/rotate`, apiKey })
  const first = pageOf(await get(`${historyUrl(id)}?limit=2`), 'first')
  t.equal(first.data.length, 2)
  t.equal(first.has_more, true)
  t.type(first.next_cursor, 'string')
  t.equal(first.page_next, `${historyUrl(id)}?limit=2&cursor=${first.next_cursor}`)

  const other = await world.endpoint('history-other')
  const foreign = await get(`${historyUrl(other)}?cursor=${first.next_cursor}`)
  t.equal(foreign.statusCode, 422, "another resource's cursor")
  t.match(JSON.parse(foreign.body), { code: 'invalid_cursor' })
  const garbage = await get(`${historyUrl(id)}?cursor=bm90LWEtY3Vyc29y`)
  t.equal(garbage.statusCode, 422)
  t.match(JSON.parse(garbage.body), { code: 'invalid_cursor' })
  for (const limit of ['0', '1001', 'x']) t.equal((await get(`${historyUrl(id)}?limit=${limit}`)).statusCode, 400, `limit=${limit}`)
})

t.test('who may read it: not another organization, not an agent key, never narrowed to one customer', async (t) => {
  const id = await world.endpoint()
  const orgB = await h.newOrganization('Organization B')
  const asB = await get(historyUrl(id), orgB.apiKey)
  t.equal(asB.statusCode, 404, "another organization's resource")
  t.match(JSON.parse(asB.body), { code: 'resource_not_found' })
  t.notOk(asB.body.includes(h.org.organizationId))
  t.equal((await get(historyUrl('ep_00000000000000000000000000'))).statusCode, 404, 'no such resource')

  const { key } = await world.freshAgentKey()
  const asAgent = await get(historyUrl(id), key)
  t.equal(asAgent.statusCode, 403)
  t.match(JSON.parse(asAgent.body), { code: 'agent_key_not_allowed' })

  const customer = await world.customer()
  const narrowed = await get(historyUrl(id), apiKey, { 'x-on-behalf-of': customer })
  t.equal(narrowed.statusCode, 403)
  t.match(JSON.parse(narrowed.body), { code: 'on_behalf_of_not_allowed' })
})

t.test('the organization itself: its key history, key hashes redacted, the auditor key named by its role', async (t) => {
  const page = pageOf(await get(historyUrl(h.org.organizationId), auditor.apiKey), 'organization')
  t.match(
    page.data.map((e) => e.type),
    ['OrganizationCreated', 'ApiKeyCreated'],
  )
  const keys = page.data.filter((e) => e.type === 'ApiKeyCreated')
  t.ok(
    keys.every((e) => e.data.keyHash === '[redacted]'),
    'no key hash',
  )
  t.match(keys.at(-1)!.data, { keyId: auditor.keyId, role: 'AUDITOR' })
})
