// X-On-Behalf-Of through HTTP: it must name a customer of the caller's organization, and binds
// customer-scoped operations to that customer.
import t from 'tap'
import { streams } from '../../events/streams.js'
import { startTestApp } from '../harness/testApp.js'
import { createIndividual, PNG } from './fixtures.js'

const h = await startTestApp(t)
const a = await createIndividual(h, { firstName: 'Ann' })
const b = await createIndividual(h, { firstName: 'Ben' })
const as = (customerId: string) => ({ 'x-on-behalf-of': customerId })

t.test('a customer of the organization: reads and writes are bound to it', async (t) => {
  const list = await h.request({ method: 'GET', url: '/v1/customers', headers: as(a.id) })
  t.equal(list.statusCode, 200)
  t.same(
    list.json().data.map((c: { id: string }) => c.id),
    [a.id],
    'the list narrows to the bound customer',
  )
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${a.id}`, headers: as(a.id) })).statusCode, 200)
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${b.id}`, headers: as(a.id) })).statusCode, 404, 'another customer: 404')
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${b.id}/compliance`, headers: as(a.id) })).statusCode, 404)
  t.equal(
    (await h.request({ method: 'POST', url: `/v1/customers/${b.id}/verification`, headers: as(a.id), payload: { phone: '+14155550123' } }))
      .statusCode,
    404,
  )
  t.equal(
    (await h.request({ method: 'POST', url: `/v1/customers/${a.id}/verification`, headers: as(a.id), payload: { phone: '+14155550123' } }))
      .statusCode,
    200,
  )
  const recorded = await h.runtime.store.readStream(streams.customer(a.id))
  t.equal(recorded.at(-1)!.metadata.onBehalfOf, a.id, 'the event records whom the platform acted for')
  t.notOk(recorded[0]!.metadata.onBehalfOf, 'and a request without the header records none')
  const doc = await h.request({
    method: 'POST',
    url: '/v1/documents',
    headers: as(a.id),
    payload: { fileName: 'a.png', contentType: 'image/png', content: PNG.toString('base64') },
  })
  t.equal(doc.json().customerId, a.id, 'an upload defaults to the bound customer')
  t.equal(
    (
      await h.request({
        method: 'POST',
        url: '/v1/documents',
        headers: as(a.id),
        payload: { customerId: b.id, fileName: 'a.png', contentType: 'image/png', content: PNG.toString('base64') },
      })
    ).statusCode,
    404,
  )
  const tos = await h.request({ method: 'POST', url: '/v1/tos/generate', headers: as(a.id), payload: {} })
  t.equal(tos.json().customerId, a.id, 'an agreement defaults to the bound customer')
  t.equal((await h.request({ method: 'GET', url: '/v1/customers', headers: as(b.id) })).json().data[0].id, b.id)
  const create = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    headers: as(a.id),
    payload: { firstName: 'X', lastName: 'Y' },
  })
  t.equal(create.statusCode, 403, 'a bound session does not create customers')
  t.equal(create.json().code, 'on_behalf_of_not_allowed')
})

t.test("refused: not a customer id (400), unknown or another organization's customer (404)", async (t) => {
  const bad = await h.request({ method: 'GET', url: '/v1/customers', headers: as('acme') })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'invalid_on_behalf_of')
  const unknown = await h.request({ method: 'GET', url: '/v1/customers', headers: as('cus_00000000000000000000000000') })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'on_behalf_of_customer_not_found')
  const other = await h.newOrganization('Other')
  const theirs = await createIndividual(h, {}, { apiKey: other.apiKey })
  t.equal(
    (await h.request({ method: 'GET', url: '/v1/customers', headers: as(theirs.id) })).statusCode,
    404,
    "another organization's customer",
  )
  t.equal(
    (
      await h.request({
        method: 'POST',
        url: '/v1/customers/individuals',
        headers: as(theirs.id),
        payload: { firstName: 'X', lastName: 'Y' },
      })
    ).statusCode,
    404,
    'refused before any write',
  )
})
