// Transfer drafts through HTTP, on a test clock: registration (the approval record's shape, a hash
// that key order does not change, 422 for a draft paying an address), 404 for another organization's
// or an unknown draft, the sandbox's screening on the scheduler to APPROVED and, for the magic
// amount, to REJECTED; the advance route; and the one transfer a draft makes (its content and payees
// matched, refused while not APPROVED, once REJECTED, or once used), with the Idempotency-Key replay.
// The platform-held rule is unchanged: a platform draft takes no draftId and is not submittable (409).
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { transferDraftStreamOf } from '../../commands/transfer-drafts/draftCommands.js'
import { newId } from '../../domain/shared/ids.js'
import { transferDraftDecider } from '../../domain/transfer-draft/decider.js'
import { createIndividual } from '../customers/fixtures.js'
import { startTestApp } from '../harness/testApp.js'
import { approvedCustomer, createTransfer, getTransfer, usBankAccount } from '../transfers/transferWorld.js'

let now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, {}, { clock: () => now })
const customerId = await approvedCustomer(h)
const payee = await usBankAccount(h, customerId)
const otherPayee = await usBankAccount(h, customerId)
const log = {
  error: (obj: object, msg: string) => {
    throw new Error(`${msg}: ${JSON.stringify(obj)}`)
  },
}
const later = (ms: number) => (now = new Date(now.getTime() + ms))

type Json = Record<string, unknown> & { id: string; status: string; draftId: string; draftHash: string; code?: string }

function expect(res: { statusCode: number; body: string; json: <T>() => T }, status: number): Json {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`)
  return res.json() as Json
}

/** Waits until every consumer (the draft's timers among them) passed the stream's last event, then runs what is due now. */
async function tick(draftId: string): Promise<void> {
  const stream = `transfer_draft-${draftId}`
  const last = (await h.runtime.store.readStream(stream)).at(-1)
  if (!(await h.runtime.runner.waitFor(last?.position, 10_000))) throw new Error(`consumers did not pass ${stream}`)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => now })
  const after = (await h.runtime.store.readStream(stream)).at(-1)
  await h.runtime.runner.waitFor(after?.position, 10_000)
}

const transferBody = (sourceAmount = '1000', destination: Record<string, unknown> = { accountId: payee, paymentRail: 'ACH' }) => ({
  sourceCustomerId: customerId,
  source: { paymentRail: 'ACH', currency: 'USD' },
  destination,
  sourceAmount,
  clientReferenceId: 'invoice-7',
})
const register = (transfer: object, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'POST', url: '/v1/transfer-drafts', payload: { transfer }, headers, ...(apiKey ? { apiKey } : {}) })
const getDraft = (draftId: string, apiKey?: string) =>
  h.request({ method: 'GET', url: `/v1/transfer-drafts/${draftId}`, ...(apiKey ? { apiKey } : {}) })
const advance = (draftId: string) => h.request({ method: 'POST', url: `/v1/sandbox/transfer-drafts/${draftId}/advance` })

/** A draft registered and taken by the sandbox's engine to its end, on the test clock. */
async function screened(transfer: object): Promise<Json> {
  const d = expect(await register(transfer), 201)
  later(2_000)
  await tick(d.draftId)
  later(5_000)
  await tick(d.draftId)
  return expect(await getDraft(d.draftId), 200)
}

t.test('registered: the approval record, PENDING_APPROVAL, its hash deterministic whatever the key order', async (t) => {
  const res = await register(transferBody())
  t.equal(res.statusCode, 201)
  const d = res.json() as Json
  t.match(d, {
    id: /^tda_[0-9a-z]{26}$/,
    draftId: /^tdraft_[0-9a-z]{26}$/,
    customerId,
    draftHash: /^sha256:[0-9a-f]{64}$/,
    destinationAccountIds: [payee],
    status: 'PENDING_APPROVAL',
    transferId: null,
  })
  t.equal(d.createdAt, now.toISOString())
  t.same(expect(await getDraft(d.draftId), 200), d, 'GET answers the same record')
  const b = transferBody()
  const reordered = {
    clientReferenceId: b.clientReferenceId,
    sourceAmount: b.sourceAmount,
    destination: { paymentRail: 'ACH', accountId: payee },
    source: { currency: 'USD', paymentRail: 'ACH' },
    sourceCustomerId: customerId,
  }
  const again = expect(await register(reordered), 201)
  t.not(again.draftId, d.draftId, 'a new draft')
  t.equal(again.draftHash, d.draftHash, 'the same content hashes the same, whatever the key order')
  t.not(expect(await register(transferBody('1001')), 201).draftHash, d.draftHash, 'other content, another hash')
})

t.test('refused: a draft paying an address (422), an unknown or foreign customer or account (404), a bad body (400/422)', async (t) => {
  const address = await register(
    transferBody('1000', { paymentRail: 'SOLANA', currency: 'USDC', toAddress: 'So1anaAddress1111111111111111111111111111' }),
  )
  t.equal(address.statusCode, 422)
  t.match(address.json(), { code: 'transfer_draft_payee_required', details: [{ field: 'transfer.destination.accountId' }] })
  const foreign = await h.newOrganization('Other')
  const theirs = (await createIndividual(h, {}, { apiKey: foreign.apiKey })).id
  const theirPayee = await usBankAccount(h, theirs, { apiKey: foreign.apiKey })
  t.equal((await register(transferBody('1000', { accountId: theirPayee, paymentRail: 'ACH' }))).statusCode, 404, "another's payee")
  t.equal((await register({ ...transferBody(), sourceCustomerId: theirs })).statusCode, 404, "another's customer")
  t.equal((await register({ ...transferBody(), confirm: true })).statusCode, 400, 'confirm is no part of a draft')
})

t.test('404 for an unknown draft and for another organization’s', async (t) => {
  const d = expect(await register(transferBody()), 201)
  const foreign = await h.newOrganization('Stranger')
  t.equal((await getDraft(d.draftId, foreign.apiKey)).statusCode, 404)
  t.equal((await getDraft('tdraft_00000000000000000000000000')).statusCode, 404)
  t.equal((await getDraft(d.id)).statusCode, 404, 'the path takes the draft id, not the record’s')
  t.equal(
    (await h.request({ method: 'POST', url: `/v1/sandbox/transfer-drafts/${d.draftId}/advance`, apiKey: foreign.apiKey })).statusCode,
    404,
  )
})

t.test('the sandbox screens on its clock: SCREENING after 2 s, APPROVED after 5 s more', async (t) => {
  const d = expect(await register(transferBody()), 201)
  later(1_000)
  await tick(d.draftId)
  t.equal(expect(await getDraft(d.draftId), 200).status, 'PENDING_APPROVAL', 'not yet')
  later(1_000)
  await tick(d.draftId)
  const screening = expect(await getDraft(d.draftId), 200)
  t.equal(screening.status, 'SCREENING')
  t.equal(screening.updatedAt, now.toISOString())
  later(4_999)
  await tick(d.draftId)
  t.equal(expect(await getDraft(d.draftId), 200).status, 'SCREENING', 'not yet')
  later(1)
  await tick(d.draftId)
  t.equal(expect(await getDraft(d.draftId), 200).status, 'APPROVED')
})

t.test('the magic amount 44.44 is REJECTED', async (t) => {
  t.equal((await screened(transferBody('4444'))).status, 'REJECTED')
})

t.test('advance runs the next step at once; the timer then changes nothing; a decided draft is 409', async (t) => {
  const d = expect(await register(transferBody()), 201)
  t.equal(expect(await advance(d.draftId), 200).status, 'SCREENING')
  t.equal(expect(await advance(d.draftId), 200).status, 'APPROVED')
  const done = await advance(d.draftId)
  t.equal(done.statusCode, 409)
  t.equal(done.json().code, 'transfer_draft_not_advanceable')
  later(10_000)
  await tick(d.draftId)
  t.equal(expect(await getDraft(d.draftId), 200).status, 'APPROVED', 'the timers found their steps done')
  t.equal((await h.runtime.store.readStream(`transfer_draft-${d.draftId}`)).length, 3, 'registered, started, approved: no more')
  t.equal((await advance('tdraft_00000000000000000000000000')).statusCode, 404)
})

t.test('a transfer from an APPROVED draft: matched, used once, replayed by its Idempotency-Key', async (t) => {
  const d = await screened(transferBody())
  t.equal(d.status, 'APPROVED')
  // The same content in another key order, with confirm: the hash is over the body less confirm, quoteId and draftId.
  const body = { confirm: false, draftId: d.draftId, ...transferBody() }
  const headers = { 'idempotency-key': `draft-${d.draftId}` }
  const res = await createTransfer(h, body, { headers })
  t.equal(res.statusCode, 201, res.body)
  const transfer = res.json() as Json
  t.equal(transfer.draftId, d.draftId, 'the transfer names its draft')
  t.equal(transfer.status, 'DRAFT')
  const used = expect(await getDraft(d.draftId), 200)
  t.equal(used.transferId, transfer.id, 'the draft names its transfer')
  t.equal(used.status, 'APPROVED')
  const replay = await createTransfer(h, body, { headers })
  t.equal(replay.statusCode, 201)
  t.equal((replay.json() as Json).id, transfer.id, 'a retry with the same key replays')
  const second = await createTransfer(h, body)
  t.equal(second.statusCode, 409)
  t.match(second.json(), { code: 'transfer_draft_used', message: new RegExp(transfer.id) })
  t.equal((await getTransfer(h, transfer.id)).draftId, d.draftId)
  const plain = await createTransfer(h, transferBody())
  t.equal((plain.json() as Json).draftId, null, 'a transfer without a draft says null')
})

t.test('a crash between the draft’s use and the transfer’s create: the next create resumes that transfer', async (t) => {
  const d = await screened(transferBody('1200'))
  const body = { confirm: false, draftId: d.draftId, ...transferBody('1200') }
  // The first append of a create (UseDraft) without the second (the transfer): what a crash between them leaves.
  const orphan = newId('tfr')
  await h.runtime.commands.handle(
    transferDraftDecider,
    transferDraftStreamOf(d.draftId),
    {
      type: 'UseDraft',
      organizationId: h.org.organizationId,
      draftId: d.draftId,
      transferId: orphan,
      draftHash: d.draftHash,
      destinationAccountIds: [payee],
      now: now.toISOString(),
    },
    { organizationId: h.org.organizationId, requestId: 'req_crashed_create', actor: 'test' },
  )
  const resumed = await createTransfer(h, body)
  t.equal(resumed.statusCode, 201, resumed.body)
  t.equal((resumed.json() as Json).id, orphan, 'created under the id the draft was used by')
  const again = await createTransfer(h, body)
  t.equal(again.statusCode, 409)
  t.equal((again.json() as Json).code, 'transfer_draft_used', 'once created, the draft is used')
})

t.test('a transfer that does not match its draft is 422, naming what differs; nothing is used', async (t) => {
  const d = await screened(transferBody())
  const amount = await createTransfer(h, { ...transferBody('1001'), draftId: d.draftId })
  t.equal(amount.statusCode, 422)
  t.match(amount.json(), { code: 'transfer_draft_mismatch', details: [{ field: 'draftHash', message: new RegExp(d.draftHash) }] })
  const payeeSwap = await createTransfer(h, { ...transferBody('1000', { accountId: otherPayee, paymentRail: 'ACH' }), draftId: d.draftId })
  t.equal(payeeSwap.statusCode, 422)
  t.match(payeeSwap.json(), { code: 'transfer_draft_mismatch', details: [{ field: 'draftHash' }, { field: 'destinationAccountIds' }] })
  t.equal(expect(await getDraft(d.draftId), 200).transferId, null, 'the draft is still unused')
  t.equal((await createTransfer(h, { ...transferBody(), draftId: d.draftId })).statusCode, 201, 'the matching transfer is made')
})

t.test('a draft not APPROVED makes no transfer: 409 naming its status, REJECTED its own code; unknown 404', async (t) => {
  const pending = expect(await register(transferBody()), 201)
  const early = await createTransfer(h, { ...transferBody(), draftId: pending.draftId })
  t.equal(early.statusCode, 409)
  t.match(early.json(), { code: 'transfer_draft_not_approved', message: /PENDING_APPROVAL/ })
  expect(await advance(pending.draftId), 200)
  t.match((await createTransfer(h, { ...transferBody(), draftId: pending.draftId })).json(), {
    code: 'transfer_draft_not_approved',
    message: /SCREENING/,
  })
  const rejected = await screened(transferBody('4444'))
  const refused = await createTransfer(h, { ...transferBody('4444'), draftId: rejected.draftId })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'transfer_draft_rejected')
  t.equal((await createTransfer(h, { ...transferBody(), draftId: 'tdraft_00000000000000000000000000' })).statusCode, 404)
  const foreign = await h.newOrganization('Elsewhere')
  const theirs = (await createIndividual(h, {}, { apiKey: foreign.apiKey })).id
  const theirPayee = await usBankAccount(h, theirs, { apiKey: foreign.apiKey })
  const theirBody = { ...transferBody('1000', { accountId: theirPayee, paymentRail: 'ACH' }), sourceCustomerId: theirs }
  const theirDraft = expect(await register(theirBody, {}, foreign.apiKey), 201)
  t.equal((await createTransfer(h, { ...transferBody(), draftId: theirDraft.draftId })).statusCode, 404, "another's draft")
})

t.test('the platform-held rule stands: a platform draft binds no transfer draft and cannot be submitted', async (t) => {
  const d = await screened(transferBody())
  const post = (url: string, payload?: object) => h.request({ method: 'POST', url, ...(payload ? { payload } : {}) })
  const bound = await post('/v1/sandbox/transfers/platform-draft', { ...transferBody(), draftId: d.draftId })
  t.equal(bound.statusCode, 400, 'draftId is no part of a platform draft')
  const held = expect(await post('/v1/sandbox/transfers/platform-draft', transferBody()), 201)
  const submit = await post(`/v1/transfers/${held.id}/submit`)
  t.equal(submit.statusCode, 409)
  t.equal(submit.json().code, 'transfer_held_by_platform')
  t.equal(expect(await getDraft(d.draftId), 200).transferId, null, 'the draft is untouched')
})
