// Webhook endpoint operations through HTTP against real Postgres: create, list, read, update,
// disable, delete, read and rotate the secret; validation; tenant isolation.
import t from 'tap'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)

const create = (body: unknown, apiKey?: string) =>
  h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: body as object, ...(apiKey ? { apiKey } : {}) })

t.test('create returns the endpoint and a GET shows the same JSON at once', async (t) => {
  const res = await create({
    url: 'https://example.com/hooks',
    description: 'main',
    filterTypes: ['customer.created'],
    metadata: { team: 'ops' },
  })
  t.equal(res.statusCode, 201)
  const body = res.json()
  t.match(body, {
    url: 'https://example.com/hooks',
    description: 'main',
    filterTypes: ['customer.created'],
    disabled: false,
    metadata: { team: 'ops' },
  })
  t.match(body.id, /^ep_[0-9a-z]{26}$/)
  t.ok(res.headers['x-request-id'], 'request id header')
  const got = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${body.id}` })
  t.equal(got.statusCode, 200)
  t.same(got.json(), body, 'read-your-writes: GET equals the create response')
})

t.test('defaults: empty filterTypes means all types, empty description and metadata', async (t) => {
  const res = await create({ url: 'http://localhost:9999/hook' })
  t.equal(res.statusCode, 201)
  t.match(res.json(), { filterTypes: [], description: '', metadata: {} })
})

t.test('validation: a clear 400 with details, and nothing created', async (t) => {
  const before = (await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=1000' })).json().data.length
  const bad = await create({ url: 'not a url', filterTypes: ['no.such_type'] })
  t.equal(bad.statusCode, 400)
  const body = bad.json()
  t.equal(body.error, 'BadRequestError')
  t.equal(body.statusCode, 400)
  t.ok(body.requestId)
  t.ok(
    body.details.some((d: { field: string }) => d.field.startsWith('body.url')),
    'names url',
  )
  t.ok(
    body.details.some((d: { field: string }) => d.field.startsWith('body.filterTypes')),
    'names filterTypes',
  )
  const missing = await create({})
  t.equal(missing.statusCode, 400)
  const ftp = await create({ url: 'ftp://example.com/x' })
  t.equal(ftp.statusCode, 400)
  const after = (await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=1000' })).json().data.length
  t.equal(after, before, 'no endpoint created by bad input')
})

t.test('update, disable, and delete', async (t) => {
  const { id } = (await create({ url: 'https://example.com/a' })).json()
  const updated = await h.request({
    method: 'PUT',
    url: `/v1/webhooks/endpoints/${id}`,
    payload: { description: 'renamed', disabled: true },
  })
  t.equal(updated.statusCode, 200)
  t.match(updated.json(), { id, description: 'renamed', disabled: true, url: 'https://example.com/a' })
  t.same((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).json(), updated.json())
  const enabled = await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: { disabled: false } })
  t.equal(enabled.json().disabled, false)
  const empty = await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: {} })
  t.equal(empty.statusCode, 400, 'an update must change something')
  const deleted = await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${id}` })
  t.equal(deleted.statusCode, 200)
  t.same(deleted.json(), { id, deleted: true })
  t.equal((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}` })).statusCode, 404)
  t.equal((await h.request({ method: 'DELETE', url: `/v1/webhooks/endpoints/${id}` })).statusCode, 404, 'second delete: 404')
  t.equal((await h.request({ method: 'PUT', url: `/v1/webhooks/endpoints/${id}`, payload: { disabled: true } })).statusCode, 404)
})

t.test('secret: whsec_ with 32 random bytes; rotation keeps the previous one valid 24 h', async (t) => {
  const { id } = (await create({ url: 'https://example.com/s' })).json()
  const secret = await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}/secret` })
  t.equal(secret.statusCode, 200)
  const first = secret.json().secret as string
  t.match(first, /^whsec_[A-Za-z0-9+/]+=*$/)
  t.equal(Buffer.from(first.slice('whsec_'.length), 'base64').length, 32)
  t.same(secret.json().previousSecrets, [])
  const rotated = await h.request({ method: 'POST', url: `/v1/webhooks/endpoints/${id}/secret/rotate` })
  t.equal(rotated.statusCode, 200)
  const r = rotated.json()
  t.not(r.secret, first)
  t.equal(r.previousSecrets.length, 1)
  t.equal(r.previousSecrets[0].secret, first)
  const expiresInMs = Date.parse(r.previousSecrets[0].expiresAt) - Date.now()
  t.ok(expiresInMs > 23.9 * 3600_000 && expiresInMs <= 24 * 3600_000, `previous secret expires in 24 h (${expiresInMs} ms)`)
  t.same((await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}/secret` })).json(), r)
})

t.test('list: cursor pagination, newest first', async (t) => {
  const other = await h.newOrganization('Lister')
  const ids: string[] = []
  for (let i = 0; i < 5; i++) ids.push((await create({ url: `https://example.com/${i}` }, other.apiKey)).json().id)
  const page1 = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=2', apiKey: other.apiKey })
  t.equal(page1.statusCode, 200)
  const p1 = page1.json()
  t.same(
    p1.data.map((e: { id: string }) => e.id),
    [ids[4], ids[3]],
  )
  t.equal(p1.has_more, true)
  t.equal(p1.page_size, 2)
  t.equal(p1.url, '/v1/webhooks/endpoints')
  t.equal(p1.page_prev, null)
  const p2 = (await h.request({ method: 'GET', url: p1.page_next, apiKey: other.apiKey })).json()
  t.same(
    p2.data.map((e: { id: string }) => e.id),
    [ids[2], ids[1]],
  )
  const p3 = (await h.request({ method: 'GET', url: p2.page_next, apiKey: other.apiKey })).json()
  t.same(
    p3.data.map((e: { id: string }) => e.id),
    [ids[0]],
  )
  t.equal(p3.has_more, false)
  t.equal(p3.page_next, null)
  const back = (await h.request({ method: 'GET', url: p3.page_prev, apiKey: other.apiKey })).json()
  t.same(
    back.data.map((e: { id: string }) => e.id),
    [ids[2], ids[1]],
  )
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=0', apiKey: other.apiKey })).statusCode, 400)
  t.equal((await h.request({ method: 'GET', url: '/v1/webhooks/endpoints?page_size=1001', apiKey: other.apiKey })).statusCode, 400)
})

t.test('tenants never see each other: 404, not 403', async (t) => {
  const a = await h.newOrganization('A')
  const b = await h.newOrganization('B')
  const { id } = (await create({ url: 'https://a.example.com/' }, a.apiKey)).json()
  for (const [method, url, payload] of [
    ['GET', `/v1/webhooks/endpoints/${id}`, undefined],
    ['GET', `/v1/webhooks/endpoints/${id}/secret`, undefined],
    ['PUT', `/v1/webhooks/endpoints/${id}`, { disabled: true }],
    ['POST', `/v1/webhooks/endpoints/${id}/secret/rotate`, undefined],
    ['DELETE', `/v1/webhooks/endpoints/${id}`, undefined],
  ] as const) {
    const res = await h.request({ method, url, apiKey: b.apiKey, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url} as B`)
  }
  const listB = (await h.request({ method: 'GET', url: '/v1/webhooks/endpoints', apiKey: b.apiKey })).json()
  t.notOk(
    listB.data.some((e: { id: string }) => e.id === id),
    "not in B's list",
  )
  const still = (await h.request({ method: 'GET', url: `/v1/webhooks/endpoints/${id}`, apiKey: a.apiKey })).json()
  t.equal(still.disabled, false, 'B changed nothing')
})
