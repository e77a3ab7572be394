// Idempotency-Key: durable replays, reuse detection, organization scope, 24 h retention, and 20
// concurrent requests with one key creating exactly one resource.
import t from 'tap'
import { sql } from 'kysely'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)
const countEndpoints = async (organizationId: string) =>
  Number(
    (
      await h.runtime.db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).n,
  )

const post = (key: string, body: object, apiKey?: string) =>
  h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: body,
    headers: { 'idempotency-key': key },
    ...(apiKey ? { apiKey } : {}),
  })

t.test('a replay returns the original status and body, marked, and creates nothing', async (t) => {
  const org = await h.newOrganization('replay')
  const first = await post('key-1', { url: 'https://example.com/1' }, org.apiKey)
  t.equal(first.statusCode, 201)
  t.notOk(first.headers['idempotent-replayed'])
  const again = await post('key-1', { url: 'https://example.com/1' }, org.apiKey)
  t.equal(again.statusCode, 201)
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.same(again.json(), first.json())
  t.equal(await countEndpoints(org.organizationId), 1)
})

t.test('same key, different body, path or method: 409 idempotency_key_reused', async (t) => {
  const org = await h.newOrganization('reuse')
  const created = await post('key-2', { url: 'https://example.com/2' }, org.apiKey)
  const id = created.json().id
  const otherBody = await post('key-2', { url: 'https://example.com/other' }, org.apiKey)
  t.equal(otherBody.statusCode, 409)
  t.equal(otherBody.json().code, 'idempotency_key_reused')
  t.equal(otherBody.json().error, 'ConflictError')
  const otherPath = await h.request({
    method: 'POST',
    url: `/v1/webhooks/endpoints/${id}/secret/rotate`,
    headers: { 'idempotency-key': 'key-2' },
    apiKey: org.apiKey,
  })
  t.equal(otherPath.statusCode, 409)
  t.equal(otherPath.json().code, 'idempotency_key_reused')
  const otherMethod = await h.request({
    method: 'PUT',
    url: '/v1/webhooks/endpoints',
    payload: { url: 'https://example.com/2' },
    headers: { 'idempotency-key': 'key-2' },
    apiKey: org.apiKey,
  })
  t.equal(otherMethod.statusCode, 404, 'no such route: refused before idempotency')
  const del = await h.request({
    method: 'DELETE',
    url: `/v1/webhooks/endpoints/${id}`,
    headers: { 'idempotency-key': 'key-2' },
    apiKey: org.apiKey,
  })
  t.equal(del.statusCode, 409)
  t.equal(await countEndpoints(org.organizationId), 1)
})

t.test('keys are scoped to the organization', async (t) => {
  const a = await h.newOrganization('scope-a')
  const b = await h.newOrganization('scope-b')
  const ra = await post('shared', { url: 'https://example.com/a' }, a.apiKey)
  const rb = await post('shared', { url: 'https://example.com/b' }, b.apiKey)
  t.equal(ra.statusCode, 201)
  t.equal(rb.statusCode, 201)
  t.not(ra.json().id, rb.json().id)
  t.notOk(rb.headers['idempotent-replayed'])
})

t.test('a request refused by validation does not use up the key', async (t) => {
  const org = await h.newOrganization('validation')
  const bad = await post('key-3', { url: 'nope' }, org.apiKey)
  t.equal(bad.statusCode, 400)
  const good = await post('key-3', { url: 'https://example.com/3' }, org.apiKey)
  t.equal(good.statusCode, 201)
})

t.test('a domain error is stored and replayed too', async (t) => {
  const org = await h.newOrganization('domain-error')
  const missing = 'ep_0000000000000000000000000a'
  const first = await h.request({
    method: 'DELETE',
    url: `/v1/webhooks/endpoints/${missing}`,
    headers: { 'idempotency-key': 'key-404' },
    apiKey: org.apiKey,
  })
  t.equal(first.statusCode, 404)
  const again = await h.request({
    method: 'DELETE',
    url: `/v1/webhooks/endpoints/${missing}`,
    headers: { 'idempotency-key': 'key-404' },
    apiKey: org.apiKey,
  })
  t.equal(again.statusCode, 404)
  t.equal(again.headers['idempotent-replayed'], 'true')
})

t.test('records are kept 24 hours, then the key is free again', async (t) => {
  const org = await h.newOrganization('expiry')
  await post('key-4', { url: 'https://example.com/4' }, org.apiKey)
  await sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'key-4'`.execute(h.runtime.db)
  const after = await post('key-4', { url: 'https://example.com/4' }, org.apiKey)
  t.equal(after.statusCode, 201)
  t.notOk(after.headers['idempotent-replayed'], 'executed anew')
  t.equal(await countEndpoints(org.organizationId), 2)
})

t.test('an invalid key header: 400', async (t) => {
  const res = await post('x'.repeat(256), { url: 'https://example.com/5' })
  t.equal(res.statusCode, 400)
  t.equal(res.json().code, 'invalid_idempotency_key')
})

t.test('a malformed key is refused by the route schema with the same body as the idempotency hook', async (t) => {
  const customerWrite = (key: string) =>
    h.request({
      method: 'POST',
      url: '/v1/customers/individuals',
      payload: { firstName: 'Ada', lastName: 'Key' },
      headers: { 'idempotency-key': key },
    })
  for (const key of ['', 'k'.repeat(256), 'a b', 'é']) {
    for (const res of [await post(key, { url: 'https://example.com/6' }), await customerWrite(key)]) {
      t.equal(res.statusCode, 400, `${JSON.stringify(key.slice(0, 8))}: 400`)
      const { requestId, ...body } = res.json()
      t.ok(requestId)
      t.same(body, {
        error: 'BadRequestError',
        code: 'invalid_idempotency_key',
        message: 'Idempotency-Key must be 1 to 255 printable characters',
        statusCode: 400,
        details: [{ field: 'Idempotency-Key', message: 'invalid header value' }],
      })
    }
  }
  t.equal((await post('k'.repeat(255), { url: 'https://example.com/7' })).statusCode, 201, '255 characters are accepted')
  t.equal((await customerWrite('c'.repeat(255))).statusCode, 201)
})

t.test("the OpenAPI document states the key's limits", async (t) => {
  const doc = (await h.request({ method: 'GET', url: '/api-json', apiKey: null })).json()
  const header = doc.paths['/v1/webhooks/endpoints'].post.parameters.find(
    (p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key',
  )
  t.match(header.schema, { type: 'string', minLength: 1, maxLength: 255 })
})

t.test('20 concurrent requests with one key create exactly one resource', async (t) => {
  const org = await h.newOrganization('concurrent')
  const results = await Promise.all(Array.from({ length: 20 }, () => post('key-race', { url: 'https://example.com/race' }, org.apiKey)))
  const statuses = results.map((r) => r.statusCode)
  t.equal(await countEndpoints(org.organizationId), 1, 'one endpoint')
  const created = results.filter((r) => r.statusCode === 201)
  t.ok(created.length >= 1, 'at least the original succeeded')
  t.equal(new Set(created.map((r) => r.json().id)).size, 1, 'every 201 names the same endpoint')
  for (const r of results) {
    if (r.statusCode === 201) continue
    t.equal(r.statusCode, 409, `status ${r.statusCode}`)
    t.equal(r.json().code, 'idempotency_request_in_progress')
  }
  t.equal(created.filter((r) => !r.headers['idempotent-replayed']).length, 1, 'exactly one original response')
  t.comment(`statuses: ${statuses.join(',')}`)
})
