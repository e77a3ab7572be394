// Verification sessions and the sandbox review through HTTP: initiate verification, links sent,
// sessions following submission and review, expiry (lazily on read and by the timer), sandbox
// outcomes (403 in production), and the public events the stored events become.
import t from 'tap'
import { customerPublicEvents } from '../../domain/customer/publicEvents.js'
import { publicEventOf } from '../../domain/publicEvents.js'
import { expiryTimerId } from '../../commands/customers/verificationExpiry.js'
import { runDueCommands } from '../../commands/scheduler/runDueCommands.js'
import { backgroundJobs, startBackgroundJobs } from '../../server/backgroundJobs.js'
import { startTestApp, type TestApp } from '../harness/testApp.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification } from './fixtures.js'

const h = await startTestApp(t, { VERIFICATION_SESSION_TTL_MS: '1500' })

const initiate = (app: TestApp, id: string, body: Record<string, unknown> = {}) =>
  app.request({ method: 'POST', url: `/v1/customers/${id}/verification_sessions`, payload: body })
const review = (app: TestApp, id: string, outcome: string, reasons?: string[]) =>
  app.request({ method: 'POST', url: `/v1/sandbox/customers/${id}/simulate-review`, payload: { outcome, ...(reasons ? { reasons } : {}) } })
const publicTypes = async (app: TestApp, id: string) =>
  (await app.runtime.store.readStream(`customer-${id}`))
    .map((e) => publicEventOf(customerPublicEvents, { type: e.type, data: e.data, recordedAt: e.recordedAt })?.type)
    .filter(Boolean)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('initiate verification: vsess_ session with a hosted URL; a link sent when asked', async (t) => {
  const c = await createIndividual(h)
  const res = await initiate(h, c.id, { sendInvite: true })
  t.equal(res.statusCode, 201)
  const s = res.json()
  t.match(s, {
    id: /^vsess_[0-9a-z]{26}$/,
    customerId: c.id,
    associatedEntityId: null,
    status: 'ACTIVE',
    email: 'ada@example.com',
    verificationUrl: /^https:\/\/verify\.sandbox\.example\.com\/sessions\/vsess_\w+\?token=[\w-]{32}$/,
  })
  t.ok(Date.parse(s.expiresAt) > Date.now(), 'expires in the future')
  t.ok(s.linkSentAt, 'link sent')
  t.same((await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification_sessions/${s.id}` })).json(), s)
  const second = (await initiate(h, c.id)).json()
  const list = (await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification_sessions` })).json()
  t.same(
    list.data.map((x: { id: string; status: string }) => [x.id, x.status]),
    [
      [s.id, 'EXPIRED'],
      [second.id, 'ACTIVE'],
    ],
    'a new session replaces the active one',
  )
  t.same(await publicTypes(h, c.id), [
    'customer.created',
    'verification.session.created',
    'verification.link.sent',
    'verification.session.expired',
    'verification.session.created',
  ])
  const noMail = await createIndividual(h, { email: undefined })
  const refused = await initiate(h, noMail.id, { sendInvite: true })
  t.equal(refused.statusCode, 422, 'no email to send the link to')
  t.equal((await initiate(h, noMail.id, { sendInvite: true, email: 'x@example.com' })).statusCode, 201)
  const b = await createBusiness(h)
  t.equal((await initiate(h, b.id, { associatedEntityId: 'asp_00000000000000000000000000' })).statusCode, 422, 'unknown associated entity')
})

t.test('expiry: read lazily as EXPIRED, then recorded by the timer; due sessions only', async (t) => {
  const c = await createIndividual(h)
  const s = (await initiate(h, c.id)).json()
  const log = { error: (obj: object, msg: string) => t.fail(msg, obj) }
  const runDue = () => runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log })
  // The session's creation scheduled its expiry (read-your-writes: the request waited for it).
  const timer = await h.runtime.schedulerDb
    .selectFrom('scheduled_commands')
    .selectAll()
    .where('id', '=', expiryTimerId(s.id))
    .executeTakeFirstOrThrow()
  t.equal(timer.due_at.toISOString(), new Date(s.expiresAt).toISOString(), 'a timer due when the session expires')
  // Just before expiresAt (by the scheduler's clock: a loaded machine may take the TTL to get here).
  const beforeExpiry = () => new Date(Date.parse(s.expiresAt) - 1)
  await runDueCommands({ db: h.runtime.schedulerDb, commands: h.runtime.commands, log, clock: beforeExpiry })
  t.notOk((await publicTypes(h, c.id)).includes('verification.session.expired'), 'nothing due yet')
  t.ok(
    await h.runtime.schedulerDb.selectFrom('scheduled_commands').select('id').where('id', '=', expiryTimerId(s.id)).executeTakeFirst(),
    'its timer waits',
  )
  await sleep(1_600)
  t.equal(
    (await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification_sessions/${s.id}` })).json().status,
    'EXPIRED',
    'lazily expired on read',
  )
  const scheduler = backgroundJobs.filter((j) => j.name === 'scheduler').map((j) => ({ ...j, intervalMs: 100 }))
  const timers = startBackgroundJobs(
    { db: h.runtime.db, schedulerDb: h.runtime.schedulerDb, commands: h.runtime.commands, auditSealing: h.runtime.auditSealing, log },
    scheduler,
  )
  for (let i = 0; i < 50 && !(await publicTypes(h, c.id)).includes('verification.session.expired'); i++) await sleep(100)
  await timers.stop()
  t.ok((await publicTypes(h, c.id)).includes('verification.session.expired'), 'the timer recorded verification.session.expired')
  // The timer appends outside a request: wait for the projections to pass its event before reading the row.
  const last = (await h.runtime.store.readStream(`customer-${c.id}`)).at(-1)
  t.equal(last?.metadata.commandId, expiryTimerId(s.id), 'appended by the timer, under its id')
  t.ok(await h.runtime.runner.waitFor(last?.position, 10_000), 'projections reached the expiry')
  const row = await h.runtime.db.selectFrom('verification_sessions').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow()
  t.equal(row.status, 'EXPIRED')
  t.equal((await runDue()).fired, 0, 'never twice')
  t.equal((await publicTypes(h, c.id)).filter((type) => type === 'verification.session.expired').length, 1, 'one expiry on the stream')
  t.notOk(
    await h.runtime.schedulerDb.selectFrom('scheduled_commands').select('id').where('id', '=', expiryTimerId(s.id)).executeTakeFirst(),
    'the fired timer is gone',
  )
})

t.test('sandbox review: approved, with sessions and events', async (t) => {
  const c = await createIndividual(h)
  await initiate(h, c.id)
  const notYet = await review(h, c.id, 'APPROVED')
  t.equal(notYet.statusCode, 409)
  t.equal(notYet.json().code, 'customer_not_under_review')
  t.equal((await saveVerification(h, c.id, await completeIndividualBody(h, c.id), true)).json().status, 'UNDER_REVIEW')
  const res = await review(h, c.id, 'APPROVED')
  t.equal(res.statusCode, 202)
  t.match(res.json(), { status: 'APPROVED', reviewedAt: /T/ })
  t.same((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json(), res.json())
  t.same(
    (await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification_sessions` }))
      .json()
      .data.map((s: { status: string }) => s.status),
    ['COMPLETED'],
  )
  t.same(await publicTypes(h, c.id), [
    'customer.created',
    'verification.session.created',
    'customer.updated',
    'customer.status_changed',
    'verification.session.submitted',
    'customer.status_changed',
    'customer.verified',
    'verification.session.completed',
  ])
  t.match(res.json().capabilities, [], 'no capabilities requested')
  t.equal((await review(h, c.id, 'REJECTED')).statusCode, 409, 'an outcome only once')
  t.equal((await review(h, c.id, 'MAYBE')).statusCode, 400, 'unknown outcome')
})

t.test('sandbox review: rejected, and needs more information then resubmitted', async (t) => {
  const rejected = await createIndividual(h)
  await saveVerification(
    h,
    rejected.id,
    { ...(await completeIndividualBody(h, rejected.id)), requestedCapabilities: ['USD_ACH_PAYIN'] },
    true,
  )
  const r = await review(h, rejected.id, 'REJECTED', ['document unreadable'])
  t.match(r.json(), {
    status: 'REJECTED',
    statusReasons: ['document unreadable'],
    capabilities: [{ capability: 'USD_ACH_PAYIN', status: 'REJECTED' }],
  })

  const nmi = await createIndividual(h)
  await initiate(h, nmi.id)
  await saveVerification(h, nmi.id, await completeIndividualBody(h, nmi.id), true)
  const more = await review(h, nmi.id, 'NEEDS_MORE_INFORMATION', ['proof of income'])
  t.match(more.json(), { status: 'NEEDS_MORE_INFORMATION', statusReasons: ['proof of income'] })
  t.same(
    (await h.request({ method: 'GET', url: `/v1/customers/${nmi.id}/verification_sessions` }))
      .json()
      .data.map((s: { status: string }) => s.status),
    ['FAILED'],
  )
  const resubmitted = await saveVerification(h, nmi.id, { occupation: '11-1011' }, true)
  t.match(resubmitted.json(), { status: 'UNDER_REVIEW', missingRequirements: [] })
  t.match((await h.request({ method: 'GET', url: `/v1/customers/${nmi.id}` })).json(), { statusReasons: [] })
  const types = await publicTypes(h, nmi.id)
  t.ok(types.includes('verification.session.failed'))
  t.equal(types.filter((x) => x === 'customer.status_changed').length, 3, 'submitted, needs more information, submitted again')
})

t.test('sandbox operations are 403 in production', async (t) => {
  const prod = await startTestApp(t, { APP_ENV: 'production' })
  const c = await createIndividual(prod)
  const res = await review(prod, c.id, 'APPROVED')
  t.equal(res.statusCode, 403)
  t.match(res.json(), { error: 'Forbidden', code: 'sandbox_only' })
  t.equal(
    (await prod.request({ method: 'POST', url: `/v1/sandbox/customers/${c.id}/simulate-review`, payload: {} })).statusCode,
    403,
    'before validation',
  )
})

t.test('archive and delete emit their events; archive expires active links', async (t) => {
  const c = await createIndividual(h)
  const s = (await initiate(h, c.id)).json()
  await h.request({ method: 'POST', url: `/v1/customers/${c.id}/archive` })
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification_sessions/${s.id}` })).json().status, 'EXPIRED')
  const types = await publicTypes(h, c.id)
  // The sessions expire by a workflow reacting to the archive (commands/workflows/), so just after it.
  t.same(types.slice(-2), ['customer.status_changed', 'verification.session.expired'])
  t.equal(
    (await h.request({ method: 'DELETE', url: `/v1/customers/${c.id}` })).statusCode,
    200,
    'archived without ever being submitted: may be deleted',
  )
  t.same((await publicTypes(h, c.id)).at(-1), 'customer.deleted')
  const submitted = await createIndividual(h)
  await saveVerification(h, submitted.id, await completeIndividualBody(h, submitted.id), true)
  const refused = await h.request({ method: 'DELETE', url: `/v1/customers/${submitted.id}` })
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'customer_not_deletable')
})
