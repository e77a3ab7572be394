// The sandbox shortcut to an APPROVED customer (POST /v1/sandbox/customers/{id}/simulate-approval):
// the full path's events and public events, only what is missing filled, the capabilities asked
// for, each starting status, and 403 in production.
import t from 'tap'
import { publicEventOf } from '../../domain/publicEvents.js'
import { customerPublicEvents } from '../../domain/customer/publicEvents.js'
import { CAPABILITIES } from '../../domain/customer/rules/capabilities.js'
import { type TestApp, startTestApp } from '../harness/testApp.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification } from './fixtures.js'

const h = await startTestApp(t)

const approve = (app: TestApp, id: string, payload?: object) =>
  app.request({ method: 'POST', url: `/v1/sandbox/customers/${id}/simulate-approval`, ...(payload ? { payload } : {}) })
const stored = async (id: string) => (await h.runtime.store.readStream(`customer-${id}`)).map((e) => e.type)
const publicTypes = async (id: string) =>
  (await h.runtime.store.readStream(`customer-${id}`))
    .map((e) => publicEventOf(customerPublicEvents, { type: e.type, data: e.data, recordedAt: e.recordedAt })?.type)
    .filter(Boolean)
const capabilitiesOf = async (id: string) =>
  ((await h.request({ method: 'GET', url: `/v1/customers/${id}` })).json() as { capabilities: { capability: string; status: string }[] })
    .capabilities

t.test('a DRAFT customer: the full path, step by step, with the same events', async (t) => {
  const full = await createIndividual(h, { countryCode: 'US' })
  await saveVerification(h, full.id, { ...(await completeIndividualBody(h, full.id)), requestedCapabilities: ['USD_BALANCE'] }, true)
  await h.request({ method: 'POST', url: `/v1/sandbox/customers/${full.id}/simulate-review`, payload: { outcome: 'APPROVED' } })

  const short = await createIndividual(h, { countryCode: 'US' })
  const res = await approve(h, short.id, { requestedCapabilities: ['USD_BALANCE'] })
  t.equal(res.statusCode, 202)
  t.match(res.json(), {
    id: short.id,
    status: 'APPROVED',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    capabilities: [{ capability: 'USD_BALANCE', status: 'ACTIVE' }],
  })
  t.same(await stored(short.id), await stored(full.id), 'the stored events of the full path')
  t.same(await publicTypes(short.id), await publicTypes(full.id), 'and its public events')
  t.same(await publicTypes(short.id), [
    'customer.created',
    'customer.updated',
    'customer.status_changed',
    'customer.status_changed',
    'customer.verified',
  ])
  const read = (await h.request({ method: 'GET', url: `/v1/customers/${short.id}` })).json()
  t.equal(read.status, 'APPROVED', 'read back APPROVED')
})

t.test('documents are real uploads of the customer; its own data is kept', async (t) => {
  const c = await createIndividual(h, { countryCode: 'GB', phone: '+447700900123' })
  await saveVerification(h, c.id, { dateOfBirth: '1985-03-04', nationality: 'GB' })
  const res = await approve(h, c.id)
  t.equal(res.statusCode, 202)
  const verification = (await h.request({ method: 'GET', url: `/v1/customers/${c.id}/verification` })).json().individual
  t.match(verification, { dateOfBirth: '1985-03-04', nationality: 'GB', address: { country: 'GB' } }, 'saved data kept')
  t.equal(verification.proofOfAddress?.type, 'UTILITY_BILL', 'outside the US: a proof of address')
  t.equal(verification.governmentId?.type, 'PASSPORT')
  const documentIds = [verification.governmentId.frontImage, verification.proofOfAddress.file, verification.supportingDocuments[0].file]
  for (const id of documentIds) {
    const doc = await h.request({ method: 'GET', url: `/v1/documents/${id}` })
    t.equal(doc.statusCode, 200, `${id} uploaded`)
    t.equal(doc.json().customerId, c.id)
  }
  const capabilities = await capabilitiesOf(c.id)
  t.same(
    capabilities.map((x) => x.capability),
    CAPABILITIES,
    'none requested before: every capability',
  )
  t.ok(
    capabilities.every((x) => x.status === 'ACTIVE'),
    'all ACTIVE',
  )
  t.match(verification, { phone: '+447700900123' }, 'the phone given at creation kept')
})

t.test('from each status', async (t) => {
  const review = await createIndividual(h, { countryCode: 'US' })
  await saveVerification(h, review.id, await completeIndividualBody(h, review.id), true)
  const before = await stored(review.id)
  t.equal((await approve(h, review.id)).statusCode, 202, 'UNDER_REVIEW: approved')
  t.same((await stored(review.id)).slice(before.length), ['CustomerReviewed', 'CustomerVerified'], 'only the review')

  const again = await stored(review.id)
  const replay = await approve(h, review.id)
  t.equal(replay.statusCode, 202)
  t.equal(replay.json().status, 'APPROVED', 'APPROVED: answered unchanged')
  t.same(await stored(review.id), again, 'no new event')

  const nmi = await createIndividual(h, { countryCode: 'US' })
  await saveVerification(h, nmi.id, await completeIndividualBody(h, nmi.id), true)
  await h.request({
    method: 'POST',
    url: `/v1/sandbox/customers/${nmi.id}/simulate-review`,
    payload: { outcome: 'NEEDS_MORE_INFORMATION' },
  })
  t.equal((await approve(h, nmi.id)).json().status, 'APPROVED', 'NEEDS_MORE_INFORMATION: submitted again and approved')

  const r = await createIndividual(h, { countryCode: 'US' })
  await saveVerification(h, r.id, await completeIndividualBody(h, r.id), true)
  await h.request({ method: 'POST', url: `/v1/sandbox/customers/${r.id}/simulate-review`, payload: { outcome: 'REJECTED' } })
  const refused = await approve(h, r.id)
  t.equal(refused.statusCode, 409)
  t.match(refused.json(), { error: 'ConflictError', code: 'customer_not_editable' })

  const business = await createBusiness(h)
  const b = await approve(h, business.id)
  t.equal(b.statusCode, 409)
  t.match(b.json(), { code: 'customer_type_mismatch' })
  t.equal((await approve(h, 'cus_00000000000000000000000000')).statusCode, 404)
  const other = await h.newOrganization('Other')
  const foreign = await createIndividual(h, { countryCode: 'US' })
  const fromOther = await h.request({ method: 'POST', url: `/v1/sandbox/customers/${foreign.id}/simulate-approval`, apiKey: other.apiKey })
  t.equal(fromOther.statusCode, 404, "another organization's customer")
  t.equal((await approve(h, review.id, { requestedCapabilities: ['NOT_ONE'] })).statusCode, 400, 'capabilities are checked')
})

t.test('403 sandbox_only in production, before validation', async (t) => {
  const prod = await startTestApp(t, { APP_ENV: 'production' })
  const c = await createIndividual(prod)
  const res = await approve(prod, c.id, { unknown: true })
  t.equal(res.statusCode, 403)
  t.match(res.json(), { error: 'Forbidden', code: 'sandbox_only' })
  t.equal((await prod.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json().status, 'DRAFT')
})
