// GET /v1/audit/resources/{id}?revision=N | ?asOf=<time> through HTTP on a real Postgres, for every
// resource it covers: after each change, the live GET is captured with the time and the stream's
// revision; once every change is made, the as-of read at each captured time and at each captured
// revision answers exactly the captured live resource (the same JSON value), with headers saying where it
// stands. Then the refusals: before the resource existed, past its end, deleted, another organization's.
import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { auditorKeyOf } from './auditorKey.js'
import { type ApiReply, jsonOf } from '../proofs/fixtures/client.js'
import { openProofApp } from '../proofs/fixtures/openApp.js'
import { HOOK_URL, createWorld } from '../proofs/fixtures/world.js'

type Capture = { what: string; status: number; body: string; at: Date; revision: number }
type History = { data: { stream: string; revision: number }[]; has_more: boolean }

const proof = await openProofApp(t)
const { h, send } = proof
const apiKey = h.org.apiKey
const world = createWorld(send, apiKey)
const auditor = await auditorKeyOf(h, 'test')

const get = (url: string, key = apiKey) => send({ method: 'GET', url, apiKey: key })
const ok = async <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<T> => {
  const reply = await send({ method, url, apiKey, ...(payload ? { payload } : {}) })
  if (reply.statusCode >= 300) throw new Error(`${method} ${url}: ${reply.statusCode} ${reply.body.slice(0, 300)}`)
  return jsonOf<T>(reply, `${method} ${url}`)
}
const asOfUrl = (id: string, query: Record<string, string>) => `/v1/audit/resources/${id}?${new URLSearchParams(query)}`
const codeOf = (reply: ApiReply) => (JSON.parse(reply.body) as { code?: string }).code

/** Waits until the projectors and workflows have handled every event, workflows' own included. */
async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const head = await proof.events.head()
    if (!(await h.runtime.runner.waitFor(head || undefined, 30_000))) throw new Error(`the read side did not reach ${head} in 30 s`)
    if ((await proof.events.head()) === head) return
  }
  throw new Error('the log did not settle')
}

/** The last revision of `stream`, read from the resource's history. */
async function lastRevision(id: string, stream: string): Promise<number> {
  const history = jsonOf<History>(await get(`/v1/audit/resources/${id}/events?limit=1000`), 'history')
  if (history.has_more) throw new Error('a history longer than one page')
  const revisions = history.data.filter((e) => e.stream === stream).map((e) => e.revision)
  return Math.max(...revisions)
}

/**
 * The live read now (once everything settled), its time and its stream's revision. A timer's event (a trade's
 * rails) may land meanwhile: the revision is read before and after, and the capture taken again when it moved.
 */
async function capture(what: string, liveUrl: string, id: string, stream: string): Promise<Capture> {
  for (let attempt = 0; attempt < 10; attempt++) {
    await settle()
    const before = await lastRevision(id, stream)
    const live = await get(liveUrl)
    const at = new Date()
    const revision = await lastRevision(id, stream)
    await sleep(5)
    if (revision === before) return { what, status: live.statusCode, body: live.body, at, revision }
  }
  throw new Error(`${what}: the stream kept moving during 10 captures`)
}

/** Every capture read back as of its time and as of its revision: the captured live body, exactly. */
async function verify(t: Test, id: string, resourceType: string, stream: string, captures: Capture[]): Promise<void> {
  for (const c of captures) {
    t.equal(c.status, 200, `${c.what}: the live read answered`)
    for (const [mode, query] of [
      ['time', { asOf: c.at.toISOString(), resourceType }],
      ['revision', { revision: String(c.revision), resourceType }],
    ] as const) {
      const reply = await get(asOfUrl(id, query))
      t.equal(reply.statusCode, 200, `${c.what}, by ${mode}: 200 (${reply.body.slice(0, 200)})`)
      // The same JSON value; not always the same text: the live read's rows keep nested objects (an address) as jsonb orders keys.
      t.strictSame(JSON.parse(reply.body), JSON.parse(c.body), `${c.what}, by ${mode}: the live resource`)
      t.equal(reply.headers['resource-revision'], String(c.revision), `${c.what}, by ${mode}: Resource-Revision`)
      t.equal(reply.headers['resource-stream'], stream, `${c.what}, by ${mode}: Resource-Stream`)
      t.equal(reply.headers['resource-type'], resourceType)
      t.ok(new Date(String(reply.headers['resource-recorded-at'])).getTime() <= c.at.getTime(), `${c.what}: recorded by then`)
    }
  }
}

t.test('a customer, from creation to approval', async (t) => {
  const before = new Date()
  await sleep(5)
  const { id } = await ok<{ id: string }>('POST', '/v1/customers/individuals', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+14155550123',
    countryCode: 'US',
    metadata: { ref: 'audit' },
  })
  const stream = `customer-${id}`
  const live = `/v1/customers/${id}`
  const captures = [await capture('created', live, id, stream)]
  await ok('POST', `/v1/customers/${id}/verification?submit=false`, await world.completeIndividual(id))
  captures.push(await capture('verification saved', live, id, stream))
  await ok('POST', `/v1/customers/${id}/submit`)
  captures.push(await capture('submitted', live, id, stream))
  await ok('POST', `/v1/sandbox/customers/${id}/simulate-review`, { outcome: 'APPROVED' })
  captures.push(await capture('approved', live, id, stream))
  t.ok(new Set(captures.map((c) => c.body)).size >= 3, 'the resource changed along the way')
  await verify(t, id, 'CUSTOMER', stream, captures)

  // The default resource type of a cus_ id is CUSTOMER.
  const byDefault = await get(asOfUrl(id, { revision: String(captures[0]!.revision) }))
  t.strictSame(JSON.parse(byDefault.body), JSON.parse(captures[0]!.body), 'cus_: a customer by default')

  const early = await get(asOfUrl(id, { asOf: before.toISOString() }))
  t.equal(early.statusCode, 404, 'before it existed')
  t.equal(codeOf(early), 'resource_not_yet_created')
  const past = await get(asOfUrl(id, { revision: '999' }))
  t.equal(past.statusCode, 422, 'past its last revision')
  t.equal(codeOf(past), 'revision_out_of_range')
  t.match(JSON.parse(past.body).details, [
    { field: 'query.revision', message: `its stream's last revision is ${captures.at(-1)!.revision}` },
  ])
})

t.test('a deleted customer: readable before its deletion, resource_deleted after', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/customers/individuals', {
    firstName: 'Tim',
    lastName: 'Berners-Lee',
    email: 'tim@example.com',
    countryCode: 'GB',
  })
  const captured = await capture('created', `/v1/customers/${id}`, id, `customer-${id}`)
  await ok('DELETE', `/v1/customers/${id}`)
  const deleted = await capture('deleted', `/v1/customers/${id}`, id, `customer-${id}`)
  t.equal(deleted.status, 404, 'the live read no longer finds it')
  await verify(t, id, 'CUSTOMER', `customer-${id}`, [captured])
  const after = await get(asOfUrl(id, { asOf: deleted.at.toISOString() }))
  t.equal(after.statusCode, 404)
  t.equal(codeOf(after), 'resource_deleted')
})

t.test('an account and its balance: opened, funded, renamed, held, funded again', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/balance-accounts', { metadata: { nickname: 'Audited' } })
  const stream = `account-${id}`
  const [account, balance] = [`/v1/accounts/${id}`, `/v1/accounts/${id}/balance`]
  const accounts: Capture[] = []
  const balances: Capture[] = []
  const both = async (what: string) => {
    accounts.push(await capture(what, account, id, stream))
    balances.push(await capture(what, balance, id, stream))
  }
  await both('opened')
  await ok('POST', `/v1/sandbox/accounts/${id}/fund-in`, { amount: '10.00' })
  await both('funded')
  await ok('PATCH', `/v1/accounts/${id}`, { metadata: { nickname: 'Renamed', purpose: 'audit' } })
  await both('renamed')
  await ok('POST', `/v1/accounts/${id}/holds`, { currency: 'USD', amount: '250' })
  await both('held')
  await ok('POST', `/v1/sandbox/accounts/${id}/fund-in`, { amount: '0.75' })
  await both('funded again')
  t.ok(new Set(balances.map((c) => c.body)).size >= 4, 'the balance moved')
  await verify(t, id, 'ACCOUNT', stream, accounts)
  await verify(t, id, 'BALANCE', stream, balances)

  const closing = (await ok<{ id: string }>('POST', '/v1/balance-accounts', { metadata: { nickname: 'Closing' } })).id
  const open = await capture('open', `/v1/accounts/${closing}`, closing, `account-${closing}`)
  await ok('POST', `/v1/accounts/${closing}/close`)
  const closed = await capture('closed', `/v1/accounts/${closing}`, closing, `account-${closing}`)
  await verify(t, closing, 'ACCOUNT', `account-${closing}`, [open, closed])

  const bank = await world.senderBank()
  const noBalance = await get(asOfUrl(bank, { revision: '0', resourceType: 'BALANCE' }))
  t.equal(noBalance.statusCode, 422, 'an external bank account holds no balance')
  t.equal(codeOf(noBalance), 'account_holds_no_balance')
  const bankAccount = await get(asOfUrl(bank, { revision: '0' }))
  t.equal(bankAccount.statusCode, 200, 'eba_: an account by default')
})

t.test('a transfer paid from a balance, step by step to COMPLETED', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/transfers', await world.transferBody('balance', { clientReferenceId: 'audit' }))
  const stream = `transfer-${id}`
  const live = `/v1/transfers/${id}`
  const captures = [await capture('created', live, id, stream)]
  for (let step = 0; step < 10; step++) {
    const advanced = await ok<{ status: string }>('POST', `/v1/sandbox/transfers/${id}/advance`)
    captures.push(await capture(`advanced to ${advanced.status}`, live, id, stream))
    if (advanced.status === 'COMPLETED') break
  }
  t.match(JSON.parse(captures.at(-1)!.body), { status: 'COMPLETED' })
  await verify(t, id, 'TRANSFER', stream, captures)
})

t.test('an FX trade, and the transfer of the same id', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/fx/trades', await world.freshTradeBody())
  const trades: Capture[] = []
  const transfers: Capture[] = []
  const both = async (what: string) => {
    trades.push(await capture(what, `/v1/fx/trades/${id}`, id, `fx_trade-${id}`))
    transfers.push(await capture(what, `/v1/transfers/${id}`, id, `transfer-${id}`))
  }
  await both('created')
  await ok('POST', `/v1/fx/trades/${id}/simulate-deposit`, {})
  await both('deposited')
  await ok('POST', `/v1/sandbox/fx/trades/${id}/advance`)
  await both('converted')
  await ok('POST', `/v1/fx/trades/${id}/simulate-payout`, { outcome: 'COMPLETED' })
  await both('paying out')
  await ok('POST', `/v1/sandbox/fx/trades/${id}/advance`)
  await both('paid out')
  t.ok(new Set(trades.map((c) => JSON.parse(c.body).status)).size >= 3, 'the trade moved through its statuses')
  await verify(t, id, 'FX_TRADE', `fx_trade-${id}`, trades)
  await verify(t, id, 'TRANSFER', `transfer-${id}`, transfers)
})

t.test('an agent: created, changed, paused, resumed, revoked', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/agents', await world.agentBody())
  const stream = `agent-${id}`
  const live = `/v1/agents/${id}`
  const captures = [await capture('created', live, id, stream)]
  await ok('PATCH', live, { description: 'Changed for the audit' })
  captures.push(await capture('changed', live, id, stream))
  await ok('POST', `${live}/pause`, { reason: 'audit' })
  captures.push(await capture('paused', live, id, stream))
  await ok('POST', `${live}/resume`)
  captures.push(await capture('resumed', live, id, stream))
  await ok('POST', `${live}/revoke`, {})
  captures.push(await capture('revoked', live, id, stream))
  await verify(t, id, 'AGENT', stream, captures)
})

t.test('an invoice: drafted, edited, finalized, sent, paid; a deleted draft', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/invoices', await world.invoiceBody())
  const stream = `invoice-${id}`
  const live = `/v1/invoices/${id}`
  const captures = [await capture('drafted', live, id, stream)]
  await ok('PATCH', live, { memo: 'Revised for the audit' })
  captures.push(await capture('edited', live, id, stream))
  await ok('POST', `${live}/finalize`)
  captures.push(await capture('finalized', live, id, stream))
  await ok('POST', `${live}/send`)
  captures.push(await capture('sent', live, id, stream))
  await ok('POST', `/v1/sandbox/invoices/${id}/simulate-payment`, { amount: '500' })
  captures.push(await capture('paid in part', live, id, stream))
  await verify(t, id, 'INVOICE', stream, captures)

  const draft = (await ok<{ id: string }>('POST', '/v1/invoices', await world.invoiceBody())).id
  const drafted = await capture('drafted', `/v1/invoices/${draft}`, draft, `invoice-${draft}`)
  await ok('DELETE', `/v1/invoices/${draft}`)
  const deleted = await capture('deleted', `/v1/invoices/${draft}`, draft, `invoice-${draft}`)
  t.equal(deleted.status, 404)
  await verify(t, draft, 'INVOICE', `invoice-${draft}`, [drafted])
  const gone = await get(asOfUrl(draft, { revision: String(deleted.revision) }))
  t.equal(codeOf(gone), 'resource_deleted')
})

t.test('a webhook endpoint: created, updated, rotated, deleted', async (t) => {
  const { id } = await ok<{ id: string }>('POST', '/v1/webhooks/endpoints', {
    url: HOOK_URL,
    description: 'audit',
    metadata: { team: 'a' },
  })
  const stream = `webhook_endpoint-${id}`
  const live = `/v1/webhooks/endpoints/${id}`
  const captures = [await capture('created', live, id, stream)]
  await ok('PUT', live, { description: 'updated', disabled: true, filterTypes: ['customer.created'] })
  captures.push(await capture('updated', live, id, stream))
  await ok('POST', `${live}/secret/rotate`)
  captures.push(await capture('rotated', live, id, stream))
  await send({ method: 'DELETE', url: live, apiKey })
  const deleted = await capture('deleted', live, id, stream)
  t.equal(deleted.status, 404)
  await verify(t, id, 'WEBHOOK_ENDPOINT', stream, captures)
  const gone = await get(asOfUrl(id, { asOf: deleted.at.toISOString() }))
  t.equal(gone.statusCode, 404)
  t.equal(codeOf(gone), 'resource_deleted')
})

t.test('the query: exactly one of revision and asOf; an id of another kind names its type', async (t) => {
  const id = await world.customer()
  for (const [query, why] of [
    [{}, 'neither'],
    [{ revision: '0', asOf: new Date().toISOString() }, 'both'],
    [{ revision: '-1' }, 'a negative revision'],
    [{ revision: '01' }, 'a revision with a leading zero'],
    [{ revision: '' }, 'an empty revision'],
    [{ asOf: '2026-13-01T00:00:00Z' }, 'no such date'],
    [{ asOf: '2026-01-01T00:00:00' }, 'a time without its offset'],
    [{ revision: '0', resourceType: 'ORGANIZATION' }, 'a type it does not cover'],
  ] as const) {
    const reply = await get(asOfUrl(id, query))
    t.equal(reply.statusCode, 400, `${why}: 400`)
    t.ok(JSON.parse(reply.body).details?.length > 0, `${why}: details`)
  }
  const document = await world.document()
  const unsupported = await get(asOfUrl(document, { revision: '0' }))
  t.equal(unsupported.statusCode, 422)
  t.equal(codeOf(unsupported), 'as_of_not_supported')
  const wrongType = await get(asOfUrl(id, { revision: '0', resourceType: 'TRANSFER' }))
  t.equal(wrongType.statusCode, 404, 'a customer id is no transfer')
  const offset = await get(asOfUrl(id, { asOf: new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+01:00') }))
  t.equal(offset.statusCode, 200, 'a time with an offset (now, an hour ahead of UTC)')
})

t.test('who may read it: the auditor key; not another organization, not an agent key', async (t) => {
  const id = await world.customer()
  const owner = await get(asOfUrl(id, { revision: '0' }))
  const asAuditor = await get(asOfUrl(id, { revision: '0' }), auditor.apiKey)
  t.equal(asAuditor.statusCode, 200)
  t.equal(asAuditor.body, owner.body, 'the auditor key reads what the full key reads')
  const orgB = await h.newOrganization('Organization B')
  const asB = await get(asOfUrl(id, { revision: '0' }), orgB.apiKey)
  t.equal(asB.statusCode, 404)
  t.equal(codeOf(asB), 'resource_not_found')
  t.notOk(asB.body.includes(h.org.organizationId))
  const { key } = await world.freshAgentKey()
  t.equal((await get(asOfUrl(id, { revision: '0' }), key)).statusCode, 403, 'an agent key')
})
