// Every failure uses the spec's error body, with a request id on every response.
import t, { type Test } from 'tap'
import { sql } from 'kysely'
import { startTestApp } from '../harness/testApp.js'

const h = await startTestApp(t)

function assertErrorBody(t: Test, body: Record<string, unknown>, status: number, error: string) {
  t.equal(body.statusCode, status)
  t.equal(body.error, error)
  t.type(body.message, 'string')
  t.type(body.requestId, 'string')
}

t.test('unknown route: 404 in the error body', async (t) => {
  const res = await h.request({ method: 'GET', url: '/v1/nothing-here' })
  t.equal(res.statusCode, 404)
  assertErrorBody(t, res.json(), 404, 'NotFoundError')
  t.equal(res.json().requestId, res.headers['x-request-id'])
})

t.test('malformed JSON: 400', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: '{"url": ',
    headers: { 'content-type': 'application/json' },
  })
  t.equal(res.statusCode, 400)
  assertErrorBody(t, res.json(), 400, 'BadRequestError')
  t.equal(res.json().code, 'invalid_json')
})

t.test('wrong content type: 415', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: 'url=https://x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(res.statusCode, 415)
  assertErrorBody(t, res.json(), 415, 'UnsupportedMediaTypeError')
})

t.test('body over the 1 MiB limit: 413', async (t) => {
  const res = await h.request({
    method: 'POST',
    url: '/v1/webhooks/endpoints',
    payload: JSON.stringify({ url: 'https://x.example', description: 'x'.repeat(1_100_000) }),
    headers: { 'content-type': 'application/json' },
  })
  t.equal(res.statusCode, 413)
  assertErrorBody(t, res.json(), 413, 'PayloadTooLargeError')
})

t.test('validation failure lists every field in details', async (t) => {
  const res = await h.request({ method: 'POST', url: '/v1/webhooks/endpoints', payload: { url: 42, description: 7 } })
  t.equal(res.statusCode, 400)
  const fields = res.json().details.map((d: { field: string }) => d.field)
  t.ok(fields.includes('body.url'))
  t.ok(fields.includes('body.description'))
})

t.test('a caller-supplied X-Request-Id is echoed; a silly one is replaced', async (t) => {
  const mine = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints', headers: { 'x-request-id': 'abc-123' } })
  t.equal(mine.headers['x-request-id'], 'abc-123')
  const silly = await h.request({ method: 'GET', url: '/v1/webhooks/endpoints', headers: { 'x-request-id': 'bad id with spaces' } })
  t.match(silly.headers['x-request-id'], /^req_/)
})

t.test('unexpected error: 500 with no stack trace or internals', async (t) => {
  const broken = await startTestApp(t)
  await sql`DROP TABLE webhook_endpoints`.execute(broken.runtime.db)
  const res = await broken.request({ method: 'GET', url: '/v1/webhooks/endpoints' })
  t.equal(res.statusCode, 500)
  assertErrorBody(t, res.json(), 500, 'InternalServerError')
  t.equal(res.json().message, 'Internal server error')
  t.notMatch(res.body, /webhook_endpoints|at .*\.ts|stack/i, 'nothing internal leaks')
})

t.test('health check needs no key', async (t) => {
  const res = await h.request({ method: 'GET', url: '/health', apiKey: null })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { status: 'ok', environment: 'sandbox', eventStore: 'postgres' })
})
