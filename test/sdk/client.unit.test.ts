// createPaymentsClient over a fake fetch: the API key or the session cookie, X-On-Behalf-Of, the caller's
// idempotency key kept, typed answers, and every non-2xx answer a PaymentsApiError carrying the service's
// error body (status, code, message, details, requestId), a 401 without code, a gateway's page too.
import t from 'tap'
import { PaymentsApiError, createPaymentsClient } from '../../sdk/src/index.js'
import { type Responder, fakeFetch, json } from './fakeFetch.js'

const BASE = 'http://api.test'

type Options = { apiKey?: string; onBehalfOf?: string; credentials?: RequestCredentials; headers?: Record<string, string> }

function clientOver(responder: Responder, options: Options = {}) {
  const fake = fakeFetch(responder)
  return { client: createPaymentsClient({ baseUrl: BASE, fetch: fake.fetch, retry: { maxRetries: 0 }, ...options }), sent: fake.sent }
}

async function failure(promise: Promise<unknown>): Promise<PaymentsApiError> {
  const error = await promise.catch((e: unknown) => e)
  if (!(error instanceof PaymentsApiError)) throw new Error(`expected a PaymentsApiError, got ${String(error)}`)
  return error
}

t.test('an API key: Bearer, no cookies; X-On-Behalf-Of on every request; typed data and the response', async (t) => {
  const h = clientOver(() => json(201, { id: 'cus_1', status: 'NOT_STARTED' }, { 'x-request-id': 'req_1' }), {
    apiKey: 'sk_sandbox_abc',
    onBehalfOf: 'cus_9',
  })
  const { data, response } = await h.client.POST('/v1/customers/individuals', {
    body: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    params: { header: { 'idempotency-key': 'order-42' } },
  })
  t.equal(data.id, 'cus_1', 'the typed body')
  t.equal(response.headers.get('x-request-id'), 'req_1', 'and the response')
  const sent = h.sent[0]!
  t.equal(sent.method, 'POST')
  t.equal(`${sent.url}`, `${BASE}/v1/customers/individuals`)
  t.equal(sent.headers.get('authorization'), 'Bearer sk_sandbox_abc')
  t.equal(sent.headers.get('x-on-behalf-of'), 'cus_9')
  t.equal(sent.headers.get('idempotency-key'), 'order-42', "the caller's key, not a generated one")
  t.equal(sent.headers.get('content-type'), 'application/json')
  t.same(JSON.parse(sent.body), { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })
  t.equal(sent.credentials, 'omit', 'a key needs no cookie')
})

t.test('no API key: no Authorization, and the same-origin session cookie', async (t) => {
  const h = clientOver(() => json(200, { data: [], has_more: false }))
  await h.client.GET('/v1/webhooks/endpoints')
  t.equal(h.sent[0]!.headers.get('authorization'), null)
  t.equal(h.sent[0]!.credentials, 'same-origin')
  const own = clientOver(() => json(200, {}), { credentials: 'include', headers: { 'x-console': '1' } })
  await own.client.GET('/v1/webhooks/endpoints')
  t.equal(own.sent[0]!.credentials, 'include', "the caller's choice stands")
  t.equal(own.sent[0]!.headers.get('x-console'), '1', 'with its headers on every request')
})

t.test('a non-2xx answer is a PaymentsApiError with the error body', async (t) => {
  const body = {
    error: 'ValidationError',
    code: 'validation_failed',
    message: 'Request validation failed',
    statusCode: 422,
    details: [{ field: 'body.email', message: 'Invalid email', value: 'nope' }],
    requestId: 'req_body',
  }
  const h = clientOver(() => json(422, body, { 'x-request-id': 'req_body' }), { apiKey: 'k' })
  const error = await failure(h.client.POST('/v1/customers/individuals', { body: { firstName: 'A', lastName: 'B', email: 'nope' } }))
  t.match(error, { name: 'PaymentsApiError', status: 422, code: 'validation_failed', message: 'Request validation failed' })
  t.same(error.details, body.details)
  t.equal(error.requestId, 'req_body')
  t.same(error.body, body, 'the whole body')
  t.equal(h.sent.length, 1, 'not retried')
})

t.test('401 has no code; a 429 keeps its Retry-After; a gateway page is its text', async (t) => {
  const unauthorized = { error: 'Unauthorized', message: 'Invalid API key', statusCode: 401, requestId: 'req_401' }
  const h401 = clientOver(() => json(401, unauthorized), { apiKey: 'bad' })
  const e401 = await failure(h401.client.GET('/v1/transfers'))
  t.match(e401, { status: 401, code: undefined, message: 'Invalid API key', requestId: 'req_401' })
  t.same(e401.details, [])

  const limited = { error: 'RateLimitError', code: 'rate_limited', message: 'Slow down', statusCode: 429, requestId: 'r' }
  const h429 = clientOver(() => json(429, limited, { 'retry-after': '7' }), { apiKey: 'k' })
  t.match(await failure(h429.client.GET('/v1/transfers')), { status: 429, code: 'rate_limited', retryAfterSeconds: 7 })

  const h502 = clientOver(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'x-request-id': 'req_gw' } }))
  const e502 = await failure(h502.client.GET('/v1/transfers'))
  t.match(e502, { status: 502, code: undefined, message: '<html>Bad gateway</html>', requestId: 'req_gw', body: undefined })
})
