// Transfer drafts in production: no sandbox engine screens them (a draft stays PENDING_APPROVAL
// whatever the clock), the advance route is 403, and an operator decides with the CLI (`drafts
// approve|reject`), the record passing through SCREENING; a decided draft is 409 naming both states.
import t from 'tap'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { runCli, stderrError, stdoutJson } from '../cli/fixtures/runCli.js'
import { createIndividual } from '../customers/fixtures.js'
import { TEST_AUDIT_SIGNING_KEY, TEST_DATA_ENCRYPTION_KEY, startTestApp } from '../harness/testApp.js'
import { usBankAccount } from '../transfers/transferWorld.js'

let now = new Date('2026-11-28T10:00:00.000Z')
const h = await startTestApp(t, { APP_ENV: 'production' }, { clock: () => now })
const env = {
  DATABASE_URL: h.runtime.databaseUrl,
  APP_ENV: 'production',
  DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
  AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
}
const customerId = (await createIndividual(h)).id
const payee = await usBankAccount(h, customerId)
const log = {
  error: (obj: object, msg: string) => {
    throw new Error(`${msg}: ${JSON.stringify(obj)}`)
  },
}

type Record_ = { id: string; draftId: string; status: string }

async function registered(): Promise<Record_> {
  const transfer = {
    sourceCustomerId: customerId,
    source: { paymentRail: 'ACH', currency: 'USD' },
    destination: { accountId: payee, paymentRail: 'ACH' },
    sourceAmount: '4444',
  }
  const res = await h.request({ method: 'POST', url: '/v1/transfer-drafts', payload: { transfer } })
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`)
  return res.json() as Record_
}
const statusOf = async (draftId: string) => (await h.request({ method: 'GET', url: `/v1/transfer-drafts/${draftId}` })).json().status

t.test('no engine: PENDING_APPROVAL whatever the clock; advance is 403', async (t) => {
  const d = await registered()
  t.equal(d.status, 'PENDING_APPROVAL')
  const last = (await h.runtime.store.readStream(`transfer_draft-${d.draftId}`)).at(-1)
  t.ok(await h.runtime.runner.waitFor(last?.position, 10_000), 'the timer consumers passed the registration')
  now = new Date(now.getTime() + 3_600_000)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: () => now })
  t.equal(await statusOf(d.draftId), 'PENDING_APPROVAL', 'an hour later, still waiting for an operator')
  const advance = await h.request({ method: 'POST', url: `/v1/sandbox/transfer-drafts/${d.draftId}/advance` })
  t.equal(advance.statusCode, 403)
  t.equal(advance.json().code, 'sandbox_only')
})

t.test('an operator approves or rejects with the CLI; a decided draft is 409', async (t) => {
  const d = await registered()
  const approve = await runCli(['drafts', 'approve', d.draftId], env)
  t.equal(approve.code, 0, approve.stderr)
  t.match(stdoutJson(approve), { id: d.id, draftId: d.draftId, status: 'APPROVED' })
  t.equal(await statusOf(d.draftId), 'APPROVED')
  const events = await h.runtime.store.readStream(`transfer_draft-${d.draftId}`)
  t.same(
    events.map((e) => e.type),
    ['TransferDraftRegistered', 'TransferDraftScreeningStarted', 'TransferDraftApproved'],
  )
  t.match(events[2], { data: { decidedBy: 'OPERATOR' }, metadata: { actor: /^cli:/ } })
  const again = await runCli(['drafts', 'reject', d.draftId], env)
  t.equal(again.code, 1)
  t.match(stderrError(again), { message: /from APPROVED to REJECTED/ })

  const other = await registered()
  const reject = await runCli(['drafts', 'reject', other.draftId], env)
  t.equal(reject.code, 0, reject.stderr)
  t.equal(await statusOf(other.draftId), 'REJECTED')
  const usage = await runCli(['drafts', 'approve', 'tfr_00000000000000000000000000'], env)
  t.equal(usage.code, 2, 'a draft id is required')
  const unknown = await runCli(['drafts', 'approve', 'tdraft_00000000000000000000000000'], env)
  t.equal(unknown.code, 1)
  t.match(stderrError(unknown), { message: /not found/ })
})
