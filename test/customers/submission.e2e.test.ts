// Submission and the compliance checklist through HTTP: missing parts keep the customer in DRAFT
// and are listed; a complete package goes UNDER_REVIEW; terms via hasAgreedToTos, an agreement from
// POST /v1/tos/generate, or the platform's own acceptance id.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { completeIndividualBody, createIndividual, daysAgo, fieldsOf, PDF, saveVerification, upload } from './fixtures.js'

const h = await startTestApp(t)
const BASE_PACKAGE = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'dateOfBirth',
  'taxIdentificationNumber',
  'address',
  'governmentId',
  'selfie',
  'proofOfAddress',
  'termsAcceptance',
]

t.test('submit with gaps: data saved, still DRAFT, missing parts listed exactly', async (t) => {
  const c = await createIndividual(h, { email: undefined })
  const res = await saveVerification(h, c.id, { phone: '+14155550123' }, true)
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.equal(body.status, 'DRAFT')
  t.notOk('submittedAt' in body)
  t.same(body.missingRequirements, [
    'email',
    'dateOfBirth',
    'taxIdentificationNumber',
    'address',
    'governmentId',
    'selfie',
    'proofOfAddress',
    'termsAcceptance',
  ])
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json().phone, '+14155550123', 'the data was saved')

  const compliance = await h.request({ method: 'GET', url: `/v1/customers/${c.id}/compliance` })
  t.equal(compliance.statusCode, 200)
  const checklist = compliance.json()
  t.same(
    checklist.requirements.map((r: { requirement: string }) => r.requirement),
    BASE_PACKAGE,
    'the base package, in order',
  )
  t.match(
    checklist.requirements.find((r: { requirement: string }) => r.requirement === 'phone'),
    { status: 'SATISFIED' },
  )
  t.match(
    checklist.requirements.find((r: { requirement: string }) => r.requirement === 'proofOfAddress'),
    { status: 'MISSING' },
  )
  t.same(checklist.missingRequirements, body.missingRequirements)
})

t.test('a US resident needs no proof of address; the complete package goes UNDER_REVIEW', async (t) => {
  const c = await createIndividual(h)
  const body = await completeIndividualBody(h, c.id)
  const res = await saveVerification(h, c.id, body, true)
  t.equal(res.statusCode, 200)
  const result = res.json()
  t.equal(result.status, 'UNDER_REVIEW')
  t.same(result.missingRequirements, [])
  t.match(result.submittedAt, /^\d{4}-\d\d-\d\dT/)
  t.equal(result.documentIds.length, 3)
  const checklist = (await h.request({ method: 'GET', url: `/v1/customers/${c.id}/compliance` })).json()
  t.match(
    checklist.requirements.find((r: { requirement: string }) => r.requirement === 'proofOfAddress'),
    { status: 'NOT_APPLICABLE' },
  )
  t.match(checklist, { status: 'UNDER_REVIEW', termsAcceptances: [{ method: 'HAS_AGREED_TO_TOS', agreementId: null }] })
  t.match(checklist.termsAcceptances[0].id, /^tosa_/)
  t.match((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json(), {
    status: 'UNDER_REVIEW',
    submittedAt: result.submittedAt,
  })
  const again = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/submit` })
  t.equal(again.statusCode, 409, 'already under review')
  t.equal(again.json().code, 'customer_not_submittable')
  t.equal((await saveVerification(h, c.id, { phone: '+14155550100' })).statusCode, 409, 'no edits under review')
})

t.test('outside the US: proof of address is required, then the separate submit operation submits', async (t) => {
  const c = await createIndividual(h)
  const body = {
    ...(await completeIndividualBody(h, c.id)),
    nationality: 'GB',
    taxIdentificationNumber: 'AB123456C',
    address: { addressLine1: '1 High St', city: 'Leeds', postalCode: 'LS1 1AA', country: 'GB' },
  }
  const saved = (await saveVerification(h, c.id, body, false)).json()
  t.same(saved.missingRequirements, ['proofOfAddress'])
  const early = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/submit` })
  t.equal(early.statusCode, 200)
  t.match(early.json(), { status: 'DRAFT', missingRequirements: ['proofOfAddress'] })
  const proof = await upload(h, c.id, PDF, 'application/pdf')
  t.equal(
    (await saveVerification(h, c.id, { proofOfAddress: { type: 'LEASE_AGREEMENT', documentDate: daysAgo(5), file: proof } })).statusCode,
    200,
  )
  const submitted = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/submit` })
  t.match(submitted.json(), { status: 'UNDER_REVIEW', missingRequirements: [] })
})

t.test('terms: POST /v1/tos/generate gives an agreement id usable as signedAgreementId', async (t) => {
  const c = await createIndividual(h)
  const gen = await h.request({ method: 'POST', url: '/v1/tos/generate', payload: { customerId: c.id } })
  t.equal(gen.statusCode, 201)
  const agreement = gen.json()
  t.match(agreement, { id: /^tos_[0-9a-z]{26}$/, customerId: c.id, version: /\d{4}-/, url: /^https:\/\/.*\/terms\/tos_/ })
  const res = await saveVerification(h, c.id, { signedAgreementId: agreement.id })
  t.equal(res.statusCode, 200)
  t.notOk(res.json().missingRequirements.includes('termsAcceptance'), 'terms satisfied')
  t.match((await h.request({ method: 'GET', url: `/v1/customers/${c.id}/compliance` })).json().termsAcceptances, [
    { method: 'SIGNED_AGREEMENT', agreementId: agreement.id },
  ])

  const unbound = (await h.request({ method: 'POST', url: '/v1/tos/generate', payload: {} })).json()
  t.equal(unbound.customerId, null)
  const other = await createIndividual(h)
  const refusedOther = await saveVerification(h, other.id, { signedAgreementId: agreement.id })
  t.equal(refusedOther.statusCode, 422, 'an agreement generated for another customer')
  t.same(fieldsOf(refusedOther.json()), ['signedAgreementId'])
  const unknown = await saveVerification(h, other.id, { signedAgreementId: 'tos_00000000000000000000000000' })
  t.equal(unknown.statusCode, 422, 'an unknown agreement')
  t.equal((await saveVerification(h, other.id, { signedAgreementId: 'agreement-1' })).statusCode, 400, 'not a tos_ id')
  t.equal((await saveVerification(h, other.id, { signedAgreementId: unbound.id })).statusCode, 200, 'an unbound agreement')
  t.equal(
    (await h.request({ method: 'POST', url: '/v1/tos/generate', payload: { customerId: 'cus_00000000000000000000000000' } })).statusCode,
    404,
  )
})

t.test("terms: metadata.infiniteTosAcceptanceId records the platform's acceptance", async (t) => {
  const c = await createIndividual(h)
  const res = await saveVerification(h, c.id, { metadata: { infiniteTosAcceptanceId: 'platform-acc-42' } })
  t.equal(res.statusCode, 200)
  t.notOk(res.json().missingRequirements.includes('termsAcceptance'))
  t.match((await h.request({ method: 'GET', url: `/v1/customers/${c.id}/compliance` })).json().termsAcceptances, [
    { method: 'PLATFORM_ACCEPTANCE_ID', externalReference: 'platform-acc-42' },
  ])
  const bad = await saveVerification(h, c.id, { metadata: { infiniteTosAcceptanceId: 42 } })
  t.equal(bad.statusCode, 422)
  t.same(fieldsOf(bad.json()), ['metadata.infiniteTosAcceptanceId'])
  const falseAgree = await saveVerification(h, (await createIndividual(h)).id, { hasAgreedToTos: false })
  t.ok(falseAgree.json().missingRequirements.includes('termsAcceptance'), 'hasAgreedToTos false records nothing')
})

t.test('compliance of an unknown customer: 404', async (t) => {
  t.equal((await h.request({ method: 'GET', url: '/v1/customers/cus_00000000000000000000000000/compliance' })).statusCode, 404)
})
