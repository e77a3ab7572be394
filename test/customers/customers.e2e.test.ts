// Customer lifecycle through HTTP against real Postgres: create individuals and businesses, read,
// list with filters, sorts and both paginations, archive, delete, tenant isolation.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'
import { createBusiness, createIndividual } from './fixtures.js'

const h = await startTestApp(t)

t.test('create an individual: 201, cus_ id, DRAFT, and GET shows the same JSON', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', countryCode: 'US', metadata: { ref: 'u1' } },
  })
  t.equal(res.statusCode, 201)
  const body = res.json()
  t.match(body.id, /^cus_[0-9a-z]{26}$/)
  t.match(body, {
    type: 'INDIVIDUAL',
    status: 'DRAFT',
    customerName: 'Grace Hopper',
    email: 'grace@example.com',
    countryCode: 'US',
    metadata: { ref: 'u1' },
    submittedAt: null,
  })
  const got = await h.request({ method: 'GET', url: `/v1/customers/${body.id}` })
  t.equal(got.statusCode, 200)
  t.same(got.json(), body)
})

t.test('create refuses bad input: 400 naming the fields', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/individuals',
    payload: { firstName: '', email: 'nope', phone: '555-1234', countryCode: 'usa' },
  })
  t.equal(res.statusCode, 400)
  const fields = res.json().details.map((d: { field: string }) => d.field)
  for (const f of ['body.firstName', 'body.lastName', 'body.email', 'body.phone', 'body.countryCode']) t.ok(fields.includes(f), f)
})

t.test('create a business: 201 with the legal name as customerName', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/customers/businesses',
    payload: { businessName: 'Acme GmbH', countryCode: 'DE' },
  })
  t.equal(res.statusCode, 201)
  t.match(res.json(), { type: 'BUSINESS', status: 'DRAFT', customerName: 'Acme GmbH', countryCode: 'DE', email: null })
  const missing = await h.request({ method: 'POST', url: '/v1/customers/businesses', payload: { businessName: 'No Country' } })
  t.equal(missing.statusCode, 400)
})

t.test('list: filters, sorts, offset and cursor pagination', async (t) => {
  const org = await h.newOrganization('Lister')
  const key = { apiKey: org.apiKey }
  const names = ['Carol Zed', 'Alice Young', 'Bob Xavier', 'Dan West']
  const ids: string[] = []
  for (const [i, n] of names.entries()) {
    const [firstName, lastName] = n.split(' ')
    ids.push((await createIndividual(h, { firstName, lastName, countryCode: i % 2 === 0 ? 'US' : 'GB' }, key)).id)
  }
  const biz = await createBusiness(h, { businessName: 'Aardvark Inc', countryCode: 'US' }, key)
  const list = async (qs: string) => {
    const res = await h.request({ method: 'GET', url: `/v1/customers${qs}`, ...key })
    t.equal(res.statusCode, 200, qs)
    return res.json()
  }
  const all = await list('')
  t.same(
    all.data.map((c: { id: string }) => c.id),
    [biz.id, ...[...ids].reverse()],
    'default: newest first',
  )
  t.equal(all.has_more, false)
  t.same(
    (await list('?sort=createdAt')).data.map((c: { id: string }) => c.id),
    [...ids, biz.id],
  )
  t.same(
    (await list('?sort=customerName')).data.map((c: { customerName: string }) => c.customerName),
    ['Aardvark Inc', 'Alice Young', 'Bob Xavier', 'Carol Zed', 'Dan West'],
  )
  t.same(
    (await list('?sort=-customerName')).data.map((c: { customerName: string }) => c.customerName),
    ['Dan West', 'Carol Zed', 'Bob Xavier', 'Alice Young', 'Aardvark Inc'],
  )
  t.same(
    (await list('?type=BUSINESS')).data.map((c: { id: string }) => c.id),
    [biz.id],
  )
  t.same(
    (await list('?countryCode=GB&sort=createdAt')).data.map((c: { id: string }) => c.id),
    [ids[1], ids[3]],
  )
  t.equal((await list('?status=APPROVED')).data.length, 0)
  t.equal((await list('?status=DRAFT')).data.length, 5)

  const offset = await list('?sort=customerName&limit=2&offset=1')
  t.same(
    offset.data.map((c: { customerName: string }) => c.customerName),
    ['Alice Young', 'Bob Xavier'],
  )
  t.match(offset, { total: 5, limit: 2, offset: 1 })
  t.notOk('has_more' in offset, 'offset mode has the offset shape')

  const p1 = await list('?sort=customerName&page_size=2&type=INDIVIDUAL')
  t.same(
    p1.data.map((c: { customerName: string }) => c.customerName),
    ['Alice Young', 'Bob Xavier'],
  )
  t.equal(p1.has_more, true)
  t.equal(p1.page_prev, null)
  t.match(p1.page_next, /type=INDIVIDUAL/, 'next link keeps the filters')
  const p2 = await list(p1.page_next.replace('/v1/customers', ''))
  t.same(
    p2.data.map((c: { customerName: string }) => c.customerName),
    ['Carol Zed', 'Dan West'],
  )
  t.equal(p2.has_more, false)
  t.equal(p2.page_next, null)
  const back = await list(p2.page_prev.replace('/v1/customers', ''))
  t.same(
    back.data.map((c: { customerName: string }) => c.customerName),
    ['Alice Young', 'Bob Xavier'],
  )

  for (const bad of [
    '?limit=0',
    '?limit=1001',
    '?page_size=1001',
    '?offset=-1',
    '?limit=2&page_size=2',
    '?sort=name',
    '?status=ACTIVE',
    '?type=PERSON',
    '?countryCode=XX',
  ]) {
    const res = await h.request({ method: 'GET', url: `/v1/customers${bad}`, ...key })
    t.equal(res.statusCode, 400, `${bad} refused`)
  }
  const unknownCursor = await h.request({ method: 'GET', url: `/v1/customers?starting_after=cus_00000000000000000000000000`, ...key })
  t.equal(unknownCursor.statusCode, 422)
})

t.test('archive: ARCHIVED, terminal; a second archive is 409', async (t) => {
  const c = await createIndividual(h)
  const res = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/archive` })
  t.equal(res.statusCode, 200)
  t.equal(res.json().status, 'ARCHIVED')
  t.same((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).json(), res.json())
  const again = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/archive` })
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'customer_archived')
  const save = await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification`, payload: { phone: '+14155550123' } })
  t.equal(save.statusCode, 409, 'archived customers are not editable')
  t.equal(save.json().code, 'customer_not_editable')
  t.equal((await h.request({ method: 'GET', url: '/v1/customers?status=ARCHIVED' })).json().data.length, 1)
})

t.test('delete: a never-submitted customer is gone (404 afterwards)', async (t) => {
  const c = await createIndividual(h)
  const res = await h.request({ method: 'DELETE', url: `/v1/customers/${c.id}` })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { id: c.id, deleted: true })
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${c.id}` })).statusCode, 404)
  t.equal((await h.request({ method: 'DELETE', url: `/v1/customers/${c.id}` })).statusCode, 404, 'second delete: 404')
  t.equal((await h.request({ method: 'POST', url: `/v1/customers/${c.id}/verification`, payload: {} })).statusCode, 404)
})

t.test("tenants never see each other's customers: 404 everywhere", async (t) => {
  const a = await h.newOrganization('A')
  const b = await h.newOrganization('B')
  const c = await createIndividual(h, {}, { apiKey: a.apiKey })
  const biz = await createBusiness(h, {}, { apiKey: a.apiKey })
  for (const [method, url, payload] of [
    ['GET', `/v1/customers/${c.id}`, undefined],
    ['GET', `/v1/customers/${c.id}/compliance`, undefined],
    ['GET', `/v1/customers/${c.id}/verification_sessions`, undefined],
    ['GET', `/v1/customers/${biz.id}/associated_businesses`, undefined],
    ['POST', `/v1/customers/${c.id}/verification`, { phone: '+14155550123' }],
    ['POST', `/v1/customers/${biz.id}/business_verification`, { registrationNumber: 'X' }],
    ['POST', `/v1/customers/${c.id}/submit`, undefined],
    ['POST', `/v1/customers/${c.id}/archive`, undefined],
    ['POST', `/v1/customers/${c.id}/verification_sessions`, {}],
    ['POST', `/v1/customers/${biz.id}/associated_businesses`, { businessName: 'Sub' }],
    ['POST', `/v1/customers/${biz.id}/associated_persons`, { firstName: 'X' }],
    ['POST', `/v1/sandbox/customers/${c.id}/simulate-review`, { outcome: 'APPROVED' }],
    [
      'POST',
      '/v1/documents',
      {
        customerId: c.id,
        fileName: 'a.png',
        contentType: 'image/png',
        content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64'),
      },
    ],
    ['POST', '/v1/tos/generate', { customerId: c.id }],
    ['DELETE', `/v1/customers/${c.id}`, undefined],
  ] as const) {
    const res = await h.request({ method, url, apiKey: b.apiKey, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url} as B`)
  }
  const listB = (await h.request({ method: 'GET', url: '/v1/customers', apiKey: b.apiKey })).json()
  t.equal(listB.data.length, 0, "B lists none of A's customers")
  t.equal((await h.request({ method: 'GET', url: `/v1/customers/${c.id}`, apiKey: a.apiKey })).json().status, 'DRAFT', 'B changed nothing')
})

t.test('Idempotency-Key: a retried create returns the same customer, not a second one', async (t) => {
  const org = await h.newOrganization('Retrier')
  const send = () =>
    h.request({
      method: 'POST',
      url: '/v1/customers/individuals',
      apiKey: org.apiKey,
      headers: { 'idempotency-key': 'create-ada-1' },
      payload: { firstName: 'Ada', lastName: 'Retry' },
    })
  const first = await send()
  const second = await send()
  t.equal(second.statusCode, 201)
  t.equal(second.headers['idempotent-replayed'], 'true')
  t.same(second.json(), first.json())
  t.equal((await h.request({ method: 'GET', url: '/v1/customers', apiKey: org.apiKey })).json().data.length, 1)
})
