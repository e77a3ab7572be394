// GET /v1/customers/{id}/verification: the saved data read back as saved, tax ids and government id
// numbers as their last four characters only; a business's data under `business`; nothing for
// another organization; [erased] once the customer is erased.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { runCli } from '../cli/fixtures/runCli.js'
import { completeIndividualBody, createBusiness, createIndividual, saveVerification } from './fixtures.js'

const h = await startTestApp(t)

t.test('an individual: the saved data, numbers masked', async (t) => {
  const customer = await createIndividual(h)
  const body = await completeIndividualBody(h, customer.id)
  t.equal((await saveVerification(h, customer.id, body)).statusCode, 200)
  const res = await h.request({ method: 'GET', url: `/v1/customers/${customer.id}/verification` })
  t.equal(res.statusCode, 200, res.body)
  t.match(res.json(), {
    customerId: customer.id,
    type: 'INDIVIDUAL',
    business: null,
    erasedAt: null,
    individual: {
      firstName: 'Ada',
      phone: body.phone,
      dateOfBirth: body.dateOfBirth,
      address: body.address,
      taxIdentificationNumberLast4: '6789',
      governmentId: { type: 'DRIVERS_LICENSE', idNumberLast4: '4567', issuingCountry: 'US', frontImage: body.governmentId.frontImage },
    },
  })
  t.notOk('taxIdentificationNumber' in res.json().individual, 'the full tax id is never returned')
  t.notOk('idNumber' in res.json().individual.governmentId, 'nor the full document number')
  t.notMatch(res.body, body.taxIdentificationNumber)
  t.notMatch(res.body, body.governmentId.idNumber)
})

t.test('a business: its data under business', async (t) => {
  const business = await createBusiness(h)
  const saved = await h.request({
    method: 'POST',
    url: `/v1/customers/${business.id}/business_verification`,
    payload: { businessLegalName: 'Acme Holdings LLC', taxIdentificationNumber: '12-3456789', phone: '+14155550100' },
  })
  t.equal(saved.statusCode, 200, saved.body)
  const res = await h.request({ method: 'GET', url: `/v1/customers/${business.id}/verification` })
  t.match(res.json(), {
    type: 'BUSINESS',
    individual: null,
    business: { businessLegalName: 'Acme Holdings LLC', phone: '+14155550100', taxIdentificationNumberLast4: '6789' },
  })
  t.notMatch(res.body, '12-3456789')
})

t.test("another organization's customer is not found; an erased one reads [erased]", async (t) => {
  const customer = await createIndividual(h, { phone: '+14155550142' })
  const other = await h.newOrganization('Other')
  const foreign = await h.request({ method: 'GET', url: `/v1/customers/${customer.id}/verification`, apiKey: other.apiKey })
  t.equal(foreign.statusCode, 404)
  const erase = await runCli(['customers', 'erase', customer.id, '--reason', 'test'], { DATABASE_URL: h.runtime.databaseUrl })
  t.equal(erase.code, 0, erase.stderr)
  // The CLI is another process: this app shows the erasure once its projections have read the event.
  const [erased] = await h.runtime.store
    .readStream(`customer-${customer.id}`, { fromRevision: 0n, maxCount: 1_000 })
    .then((events) => events.slice(-1))
  t.ok(await h.runtime.runner.waitFor(erased?.position, 15_000), 'the projections read the erasure')
  const res = await h.request({ method: 'GET', url: `/v1/customers/${customer.id}/verification` })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { individual: { phone: '[erased]' }, erasedAt: String })
})
