// Counterparty operations through HTTP against real Postgres: create, read, list (filters, offset
// and cursor paging, bounds), delete; the customer's checks; X-On-Behalf-Of; tenant isolation.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createBusiness, createIndividual } from '../customers/fixtures.js'

const h = await startTestApp(t)
const ada = await createIndividual(h)
const acme = await createBusiness(h)

const ADDRESS = { addressLine1: '10 Downing St', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' }
const body = (over: Record<string, unknown> = {}) => ({
  customerId: ada.id,
  name: 'Jane Payee',
  beneficiaryType: 'INDIVIDUAL',
  address: ADDRESS,
  ...over,
})
const create = (payload: object, headers: Record<string, string> = {}, apiKey?: string) =>
  h.request({ method: 'POST', url: '/v1/counterparties', payload, headers, ...(apiKey ? { apiKey } : {}) })
const get = (url: string, headers: Record<string, string> = {}) => h.request({ method: 'GET', url, headers })

t.test('create answers 201 with the counterparty, and a GET shows the same JSON at once', async (t) => {
  const res = await create(body({ metadata: { ref: 'p1' } }))
  t.equal(res.statusCode, 201)
  const cp = res.json()
  t.match(cp.id, /^cp_[0-9a-z]{26}$/)
  t.match(cp, {
    customerId: ada.id,
    name: 'Jane Payee',
    beneficiaryType: 'INDIVIDUAL',
    address: ADDRESS,
    isThirdParty: true,
    metadata: { ref: 'p1' },
  })
  t.equal(cp.createdAt, cp.updatedAt)
  const got = await get(`/v1/counterparties/${cp.id}`)
  t.equal(got.statusCode, 200)
  t.same(got.json(), cp, 'read-your-writes')
})

t.test('defaults: third party, empty metadata; a business beneficiary', async (t) => {
  const res = await create(body({ customerId: acme.id, name: 'Globex GmbH', beneficiaryType: 'BUSINESS' }))
  t.equal(res.statusCode, 201)
  t.match(res.json(), { isThirdParty: true, metadata: {}, beneficiaryType: 'BUSINESS', customerId: acme.id })
})

t.test('validation: 400 for the shape, 422 for the address rule', async (t) => {
  const missing = await create({ customerId: ada.id })
  t.equal(missing.statusCode, 400)
  const fields = missing.json().details.map((d: { field: string }) => d.field)
  for (const f of ['body.name', 'body.beneficiaryType', 'body.address'])
    t.ok(
      fields.some((x: string) => x.startsWith(f)),
      `names ${f}`,
    )
  t.equal((await create(body({ beneficiaryType: 'ROBOT' }))).statusCode, 400)
  t.equal((await create(body({ name: ' ' }))).statusCode, 400, 'a blank name')
  t.equal((await create(body({ address: { ...ADDRESS, country: 'XX' } }))).statusCode, 400, 'an unknown country')
  const cyrillic = await create(body({ address: { ...ADDRESS, addressLine1: 'ул. Тверская 1' } }))
  t.equal(cyrillic.statusCode, 422)
  t.equal(cyrillic.json().code, 'address_invalid')
  t.match(cyrillic.json().details, [{ field: 'address.transliterated.addressLine1' }])
})

t.test("the customer: unknown, another organization's, archived", async (t) => {
  const unknown = await create(body({ customerId: 'cus_0000000000nosuchcustomer00' }))
  t.equal(unknown.statusCode, 404)
  const other = await h.newOrganization('Other')
  const theirs = await createIndividual(h, {}, { apiKey: other.apiKey })
  t.equal((await create(body({ customerId: theirs.id }))).statusCode, 404, "another organization's customer is not found")
  const archived = await createIndividual(h, { firstName: 'Old' })
  t.equal((await h.request({ method: 'POST', url: `/v1/customers/${archived.id}/archive` })).statusCode, 200)
  const refused = await create(body({ customerId: archived.id }))
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'customer_archived')
})

t.test('X-On-Behalf-Of binds creation and reads to that customer', async (t) => {
  const bob = await createIndividual(h, { firstName: 'Bob' })
  const as = (id: string) => ({ 'x-on-behalf-of': id })
  t.equal((await create(body({ customerId: ada.id }), as(bob.id))).statusCode, 404, "another customer's: 404")
  const mine = (await create(body({ customerId: bob.id, name: 'Bob Payee' }), as(bob.id))).json()
  const adas = (await create(body({ name: 'Ada Payee 2' }))).json()
  t.equal((await get(`/v1/counterparties/${mine.id}`, as(bob.id))).statusCode, 200)
  t.equal((await get(`/v1/counterparties/${adas.id}`, as(bob.id))).statusCode, 404)
  const listed = (await get('/v1/counterparties', as(bob.id))).json()
  t.same(
    listed.data.map((c: { id: string }) => c.id),
    [mine.id],
    'the list narrows to the bound customer',
  )
})

t.test('list: filters, offset and cursor paging, defaults and bounds', async (t) => {
  const c = await createIndividual(h, { firstName: 'Lister' })
  const made: string[] = []
  for (let i = 0; i < 5; i++) {
    const type = i % 2 === 0 ? 'INDIVIDUAL' : 'BUSINESS'
    made.push((await create(body({ customerId: c.id, name: `Payee ${i}`, beneficiaryType: type }))).json().id)
  }
  const newestFirst = [...made].reverse()
  const all = (await get(`/v1/counterparties?customerId=${c.id}`)).json()
  t.same(Object.keys(all).sort(), ['data', 'limit', 'offset', 'total'])
  t.match(all, { total: 5, limit: 500, offset: 0 }, 'default page size 500')
  t.same(
    all.data.map((x: { id: string }) => x.id),
    newestFirst,
    'newest first',
  )
  const business = (await get(`/v1/counterparties?customerId=${c.id}&beneficiaryType=BUSINESS`)).json()
  t.same(
    business.data.map((x: { id: string }) => x.id),
    [made[3], made[1]],
  )
  t.equal(business.total, 2)
  const byOffset = (await get(`/v1/counterparties?customerId=${c.id}&limit=2&offset=2`)).json()
  t.match(byOffset, { total: 5, limit: 2, offset: 2 })
  t.same(
    byOffset.data.map((x: { id: string }) => x.id),
    newestFirst.slice(2, 4),
  )
  const first = (await get(`/v1/counterparties?customerId=${c.id}&page_size=2`)).json()
  t.match(first, { total: 5, limit: 2, offset: 0 })
  const second = (await get(`/v1/counterparties?customerId=${c.id}&page_size=2&starting_after=${first.data[1].id}`)).json()
  t.match(second, { total: 5, limit: 2, offset: 2 }, 'cursor mode says how many items precede the page')
  t.same(
    second.data.map((x: { id: string }) => x.id),
    newestFirst.slice(2, 4),
  )
  const last = (await get(`/v1/counterparties?customerId=${c.id}&page_size=2&starting_after=${second.data[1].id}`)).json()
  t.same(
    last.data.map((x: { id: string }) => x.id),
    newestFirst.slice(4),
  )
  for (const q of ['limit=0', 'limit=1001', 'page_size=0', 'page_size=1001', 'offset=-1', 'limit=2&page_size=2', 'beneficiaryType=X']) {
    const res = await get(`/v1/counterparties?${q}`)
    t.equal(res.statusCode, 400, `${q}: 400`)
  }
  t.equal((await get('/v1/counterparties?limit=1000')).statusCode, 200, 'limit 1000 is allowed')
  const badCursor = await get(`/v1/counterparties?customerId=${c.id}&starting_after=cp_0000000000nosuchcursor0000`)
  t.equal(badCursor.statusCode, 422)
  t.equal(badCursor.json().code, 'invalid_cursor')
})

t.test('another organization sees none of them', async (t) => {
  const other = await h.newOrganization('Elsewhere')
  const mine = (await create(body({ name: 'Private Payee' }))).json()
  const read = await h.request({ method: 'GET', url: `/v1/counterparties/${mine.id}`, apiKey: other.apiKey })
  t.equal(read.statusCode, 404)
  const list = await h.request({ method: 'GET', url: '/v1/counterparties', apiKey: other.apiKey })
  t.match(list.json(), { data: [], total: 0 })
})

t.test('delete: 200, then 404 everywhere', async (t) => {
  const cp = (await create(body({ name: 'Short Lived' }))).json()
  const other = await h.newOrganization('Deleter')
  const bob = await createIndividual(h, { firstName: 'Bobby' })
  const foreign = await h.request({ method: 'DELETE', url: `/v1/counterparties/${cp.id}`, apiKey: other.apiKey })
  t.equal(foreign.statusCode, 404, "another organization's: 404")
  const scoped = await h.request({ method: 'DELETE', url: `/v1/counterparties/${cp.id}`, headers: { 'x-on-behalf-of': bob.id } })
  t.equal(scoped.statusCode, 404, "another customer's with X-On-Behalf-Of: 404")
  const del = await h.request({ method: 'DELETE', url: `/v1/counterparties/${cp.id}` })
  t.equal(del.statusCode, 200)
  t.same(del.json(), { id: cp.id, deleted: true })
  t.equal((await get(`/v1/counterparties/${cp.id}`)).statusCode, 404)
  t.equal((await h.request({ method: 'DELETE', url: `/v1/counterparties/${cp.id}` })).statusCode, 404, 'twice: 404')
  const listed = (await get(`/v1/counterparties?customerId=${ada.id}`)).json()
  t.notOk(
    listed.data.some((x: { id: string }) => x.id === cp.id),
    'gone from the list',
  )
})
